// The flags of --endpoint-type template: --template-file and the response field paths. The file is
// read and its placeholders checked here, so a bad template is one line before anything starts.
import fs from 'node:fs';
import { InvalidArgumentError, InvalidFileError } from '../errors.js';
import { compileTemplate } from './template-body.js';

/** The template endpoint's settings (RunConfig.template). */
export interface TemplateSettings {
  /** --template-file: its path and its text. */
  readonly file: string;
  readonly text: string;
  readonly content_path: string;
  readonly reasoning_path: string | null;
  readonly usage_path: string;
  readonly error_path: string;
  /** --response-finish-path: where a payload says why the response ended; null: not read. */
  readonly finish_path: string | null;
}

export interface TemplateFlags {
  'template-file'?: string;
  'response-content-path'?: string;
  'response-reasoning-path'?: string;
  'response-usage-path'?: string;
  'response-error-path'?: string;
  'response-finish-path'?: string;
}

const PATH_FLAGS = [
  'response-content-path',
  'response-reasoning-path',
  'response-usage-path',
  'response-error-path',
  'response-finish-path',
] as const;

/** null unless the endpoint type is template; its flags with another type are bad input. */
export function parseTemplateFlags(f: TemplateFlags, endpointType: string): TemplateSettings | null {
  if (endpointType !== 'template') {
    for (const flag of ['template-file', ...PATH_FLAGS] as const)
      if (f[flag] !== undefined) throw new InvalidArgumentError(`--${flag}: only applies with --endpoint-type template`);
    return null;
  }
  const file = f['template-file'];
  if (file === undefined) throw new InvalidArgumentError('--template-file: required with --endpoint-type template');
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new InvalidFileError(`--template-file: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  compileTemplate(text);
  return Object.freeze({
    file,
    text,
    content_path: f['response-content-path'] ?? 'text',
    reasoning_path: f['response-reasoning-path'] ?? null,
    usage_path: f['response-usage-path'] ?? 'usage',
    error_path: f['response-error-path'] ?? 'error',
    finish_path: f['response-finish-path'] ?? null,
  });
}
