// One class per condition, each with a stable `code` (in the style of undici's errors).
// Exit codes: 0 success; 1 the run finished but every request failed (or a runtime failure);
// 2 bad input (flag, file, unreachable URL at start); 130 interrupted before any export.

export class ServebenchError extends Error {
  readonly code: string = 'SB_ERROR';
  readonly exitCode: number = 1;
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** Bad flag or flag value. */
export class InvalidArgumentError extends ServebenchError {
  override readonly code = 'SB_INVALID_ARG';
  override readonly exitCode = 2;
}

/** A file (dataset, tokenizer, config) that cannot be used. */
export class InvalidFileError extends ServebenchError {
  override readonly code = 'SB_INVALID_FILE';
  override readonly exitCode = 2;
}

/** The target server cannot be reached before the run starts. */
export class UnreachableServerError extends ServebenchError {
  override readonly code = 'SB_UNREACHABLE';
  override readonly exitCode = 2;
}

/** A tokenizer that cannot be found or loaded. */
export class TokenizerLoadError extends ServebenchError {
  override readonly code = 'SB_TOKENIZER';
  override readonly exitCode = 2;
}

/** The built-in mock server could not be started. */
export class MockStartError extends ServebenchError {
  override readonly code = 'SB_MOCK_START';
}

/** Every request of the run failed; the report was still written. */
export class AllRequestsFailedError extends ServebenchError {
  override readonly code = 'SB_ALL_FAILED';
}

/** An encoded HDR histogram (histograms.json, an HdrHistogram log) that cannot be decoded. */
export class HistogramDecodeError extends ServebenchError {
  override readonly code = 'SB_HDR_DECODE';
  override readonly exitCode = 2;
}
