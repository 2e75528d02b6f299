// The comparison point for the native framer: SSE framing the way most JS
// clients do it (eventsource-parser, the OpenAI SDK's line decoder): decode
// each chunk with a streaming TextDecoder, append to a string buffer, cut
// lines with a regex, then split each line on its first colon.
// It is spec-correct on the same cases (CRLF across chunks, BOM, comments,
// multi-line data), so the two framers do the same work.

const LINE_END = /\r\n|\r|\n/g;

export function jsFrameSse(chunks, stamps) {
  const decoder = new TextDecoder('utf-8'); // strips the stream's leading BOM
  const data = [];
  const types = [];
  const out = [];
  let buf = '';
  let dataLines = [];
  let type = '';
  let skipLf = false;

  for (let c = 0; c < chunks.length; c++) {
    let text = decoder.decode(chunks[c], { stream: true });
    if (skipLf && text.length > 0) {
      skipLf = false;
      if (text.charCodeAt(0) === 10) text = text.slice(1);
    }
    buf += text;
    LINE_END.lastIndex = 0;
    let start = 0;
    let m;
    while ((m = LINE_END.exec(buf)) !== null) {
      // A CR ending the buffer may be the first half of a CRLF.
      if (m[0] === '\r' && m.index === buf.length - 1) skipLf = true;
      const line = buf.slice(start, m.index);
      start = m.index + m[0].length;
      if (line === '') {
        if (dataLines.length > 0) {
          out.push(stamps[c]);
          data.push(dataLines.join('\n'));
          types.push(type);
        }
        dataLines = [];
        type = '';
        continue;
      }
      if (line.charCodeAt(0) === 58) continue; // ':' comment
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? '' : line.slice(colon + 1);
      if (value.charCodeAt(0) === 32) value = value.slice(1);
      if (field === 'data') dataLines.push(value);
      else if (field === 'event') type = value;
    }
    buf = buf.slice(start);
  }
  // No trailing_bytes: JS clients do not track it, and it is not timed.
  return { data, stamps: BigInt64Array.from(out), types };
}
