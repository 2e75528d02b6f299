// The native transport's HTTP/1.1 request heads (request line and headers, latin1): each header is
// checked once per value, since every request of a run carries the same headers but its
// x-request-id, and each path's request target is rendered once.
import type { RenderedRequest } from '../endpoints/request.js';
import { requestTarget } from './url.js';

/** Headers the transport writes itself. */
const OWN_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection']);
/** Field values may hold visible Latin-1 and tabs; no controls (CR/LF would split the request). */
const BAD_VALUE = /[^\t\x20-\x7e\x80-\xff]/;
const BAD_NAME = /[^!#$%&'*+.^_`|~0-9A-Za-z-]/;

export class RequestHeads {
  private readonly hostLine: string;
  /** path → request target: the same few paths are rendered for every request. */
  private readonly targetOf = new Map<string, string>();
  /** header name → the last value checked and its line ('' for a header the transport writes itself). */
  private readonly headerLine = new Map<string, { value: string; line: string }>();

  constructor(private readonly base: URL) {
    this.hostLine = `host: ${base.host}\r\n`;
  }

  /** The head for `req`, up to and including the blank line; throws on a header that would break the request. */
  render(req: RenderedRequest): string {
    let target = this.targetOf.get(req.path);
    if (target === undefined) {
      target = requestTarget(this.base, req.path);
      this.targetOf.set(req.path, target);
    }
    let head = `POST ${target} HTTP/1.1\r\n${this.hostLine}`;
    for (const name in req.headers) {
      const value = req.headers[name];
      const seen = this.headerLine.get(name);
      if (seen !== undefined && seen.value === value) {
        head += seen.line;
        continue;
      }
      if (BAD_NAME.test(name) || name === '') throw new Error(`invalid request header name ${JSON.stringify(name)}`);
      if (BAD_VALUE.test(value)) throw new Error(`invalid character in the value of request header ${name}`);
      const line = OWN_HEADERS.has(name.toLowerCase()) ? '' : `${name}: ${value}\r\n`;
      // Valid names only, so the map holds a few entries (those of -H, the adapter and auth).
      if (seen === undefined) this.headerLine.set(name, { value, line });
      else {
        seen.value = value;
        seen.line = line;
      }
      head += line;
    }
    return head + `content-length: ${req.body.length}\r\n\r\n`;
  }
}
