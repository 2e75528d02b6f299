// A deliberately naive SSE framer used as the oracle for the native one: it
// concatenates the body, walks it byte by byte and decodes each event at the
// end, so it shares no structure with the chunked memchr scan in sse.cc.

export interface RefFrames {
  data: string[];
  stamps: bigint[];
  types: string[];
  trailing_bytes: number;
}

const CR = 0x0d;
const LF = 0x0a;
const COLON = 0x3a;
const SPACE = 0x20;
const enc = new TextEncoder();
const DATA = enc.encode('data');
const EVENT = enc.encode('event');

function eq(a: number[], b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

export function referenceFrame(chunks: Uint8Array[], stamps: readonly bigint[]): RefFrames {
  const total = chunks.reduce((n, c) => n + c.length, 0);
  const bytes = new Uint8Array(total);
  const owner = new Int32Array(total); // chunk index of every byte
  let off = 0;
  chunks.forEach((c, k) => {
    bytes.set(c, off);
    owner.fill(k, off, off + c.length);
    off += c.length;
  });
  // ignoreBOM: only the stream's first BOM is stripped (below), not one inside data.
  const dec = new TextDecoder('utf-8', { ignoreBOM: true });
  const out: RefFrames = { data: [], stamps: [], types: [], trailing_bytes: 0 };

  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  let boundary = i;
  let data: number[] = [];
  let type: number[] = [];
  let line: number[] = [];
  while (i < total) {
    const b = bytes[i];
    if (b !== CR && b !== LF) {
      line.push(b);
      i++;
      continue;
    }
    const eol = i;
    i++;
    if (b === CR && i < total && bytes[i] === LF) i++;
    if (line.length === 0) {
      if (data.length > 0) {
        data.pop();
        out.data.push(dec.decode(new Uint8Array(data)));
        out.types.push(dec.decode(new Uint8Array(type)));
        out.stamps.push(stamps[owner[eol]]);
      }
      data = [];
      type = [];
      boundary = i;
    } else if (line[0] !== COLON) {
      const c = line.indexOf(COLON);
      const field = c < 0 ? line : line.slice(0, c);
      let value = c < 0 ? [] : line.slice(c + 1);
      if (value[0] === SPACE) value = value.slice(1);
      if (eq(field, DATA)) data.push(...value, LF);
      else if (eq(field, EVENT)) type = value;
    }
    line = [];
  }
  out.trailing_bytes = total - boundary;
  return out;
}
