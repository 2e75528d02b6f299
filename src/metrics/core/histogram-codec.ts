// The standard compressed HdrHistogram form ("HISTFAAA…"): base64 of
//   int32 cookie 0x1c849314 | int32 length | zlib-deflated V2 encoding (big-endian),
// as HdrHistogram (Java) and hdr-histogram-js's encodeIntoCompressedBase64 write it.
// The V2 payload itself is built and parsed in C++ (native/hdr/hdr_codec.cc); the zlib envelope is
// done here with node:zlib, so the addon links no zlib of its own (node's bundled one is not
// guaranteed to export its symbols everywhere, and the system's needs -dev headers).
import zlib from 'node:zlib';
import { HistogramDecodeError } from '../../errors.js';
import { callNative, native, type NativeHistogram } from '../../native.js';

const V2_COMPRESSED_COOKIE_BASE = 0x1c849304;
/** The cookie with the word-size nibble HdrHistogram sets (0x10). */
const V2_COMPRESSED_COOKIE = V2_COMPRESSED_COOKIE_BASE | 0x10;
/** Far above any real histogram (5 digits up to 2^62 is ~6 M counts, ≤ 9 bytes each); bounds a zip bomb. */
const MAX_INFLATED_BYTES = 64 * 1024 * 1024;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The compressed base64 form of one histogram. */
export function encodeCompressed(h: NativeHistogram): string {
  const deflated = zlib.deflateSync(h.encode());
  const head = Buffer.alloc(8);
  head.writeUInt32BE(V2_COMPRESSED_COOKIE, 0);
  head.writeUInt32BE(deflated.length, 4);
  return Buffer.concat([head, deflated]).toString('base64');
}

/**
 * Parses the compressed base64 form (ours or any HdrHistogram implementation's V2, lowest
 * discernible value 1). Anything else throws HistogramDecodeError (code SB_HDR_DECODE).
 */
export function decodeCompressed(encoded: string): NativeHistogram {
  if (typeof encoded !== 'string') throw new HistogramDecodeError('an encoded histogram must be a base64 string');
  const text = encoded.trim();
  if (text.length === 0 || text.length % 4 !== 0 || !BASE64.test(text)) {
    throw new HistogramDecodeError('an encoded histogram must be base64 (the "HISTFAAA…" form)');
  }
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length < 8) throw new HistogramDecodeError('encoded histogram truncated (shorter than its 8-byte header)');
  const cookie = bytes.readUInt32BE(0);
  if ((cookie & ~0xf0) !== V2_COMPRESSED_COOKIE_BASE) {
    throw new HistogramDecodeError(`not a compressed HdrHistogram V2 encoding (cookie 0x${cookie.toString(16).padStart(8, '0')})`);
  }
  const length = bytes.readUInt32BE(4);
  if (length > bytes.length - 8) throw new HistogramDecodeError('encoded histogram truncated (compressed length exceeds the data)');
  let v2: Buffer;
  try {
    v2 = zlib.inflateSync(bytes.subarray(8, 8 + length), { maxOutputLength: MAX_INFLATED_BYTES });
  } catch (err) {
    throw new HistogramDecodeError(`encoded histogram does not inflate (${(err as Error).message})`);
  }
  return callNative(() => native.Histogram.decode(v2));
}
