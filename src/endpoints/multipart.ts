// multipart/form-data bodies (RFC 7578) as bytes, so both transports send them as they send JSON:
// a Buffer and a content-type. Built by hand because the form must be bytes synchronously, on the
// send path; the tests read it back with undici's own FormData parser.
import { randomBytes } from 'node:crypto';

export interface FilePart {
  name: string;
  filename: string;
  contentType: string;
  data: Buffer;
}

function quoted(s: string): string {
  return s.replace(/[\r\n"]/g, (c) => (c === '"' ? '%22' : c === '\r' ? '%0D' : '%0A'));
}

export function multipartBody(fields: Record<string, string>, files: FilePart[]): { body: Buffer; contentType: string } {
  const boundary = `----servebench${randomBytes(12).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${quoted(name)}"\r\n\r\n${value}\r\n`));
  }
  for (const f of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\ncontent-disposition: form-data; name="${quoted(f.name)}"; filename="${quoted(f.filename)}"\r\ncontent-type: ${f.contentType}\r\n\r\n`,
      ),
      f.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}
