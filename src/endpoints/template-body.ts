// --template-file: a request body template with {{placeholders}}, compiled once into literal pieces
// and slots so each request is a join. A placeholder as a whole JSON string ("{{prompt}}") or bare
// ({{max_tokens}}) becomes the JSON value; inside a longer string ("Q: {{prompt}}") its escaped text.
import { InvalidArgumentError } from '../errors.js';

export const TEMPLATE_PLACEHOLDERS = ['prompt', 'max_tokens', 'model', 'stream', 'messages'] as const;
export type TemplatePlaceholder = (typeof TEMPLATE_PLACEHOLDERS)[number];

export type TemplateValues = Record<TemplatePlaceholder, unknown>;

interface Slot {
  name: TemplatePlaceholder;
  /** value: the JSON value in place of the placeholder (and its quotes); text: escaped into a string. */
  mode: 'value' | 'text';
}

export interface CompiledTemplate {
  /** Literal text around the slots: pieces.length = slots.length + 1. */
  readonly pieces: readonly string[];
  readonly slots: readonly Slot[];
}

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/y;

/** Compiles a template's text; an unknown placeholder, or a template that is not JSON once filled, is bad input. */
export function compileTemplate(text: string, flag = 'template-file'): CompiledTemplate {
  const pieces: string[] = [];
  const slots: Slot[] = [];
  let literal = '';
  let inString = false;
  for (let i = 0; i < text.length;) {
    const ch = text[i];
    if (ch === '{' && text[i + 1] === '{') {
      PLACEHOLDER.lastIndex = i;
      const m = PLACEHOLDER.exec(text);
      if (m) {
        const name = m[1];
        if (!(TEMPLATE_PLACEHOLDERS as readonly string[]).includes(name))
          throw new InvalidArgumentError(
            `--${flag}: unknown placeholder {{${name}}} (known: ${TEMPLATE_PLACEHOLDERS.map((p) => `{{${p}}}`).join(', ')})`,
          );
        const end = i + m[0].length;
        // "{{name}}" as the whole string: the quotes go with it, the JSON value takes their place.
        const whole = inString && literal.endsWith('"') && !literal.endsWith('\\"') && text[end] === '"';
        if (whole) literal = literal.slice(0, -1);
        pieces.push(literal);
        slots.push({ name: name as TemplatePlaceholder, mode: inString && !whole ? 'text' : 'value' });
        literal = '';
        i = whole ? end + 1 : end;
        if (whole) inString = false;
        continue;
      }
    }
    if (inString && ch === '\\') {
      literal += text.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (ch === '"') inString = !inString;
    literal += ch;
    i++;
  }
  pieces.push(literal);
  const compiled = { pieces, slots };
  try {
    const sample = JSON.parse(renderTemplate(compiled, { prompt: 'x', max_tokens: 1, model: 'm', stream: true, messages: [] })) as unknown;
    if (sample === null || typeof sample !== 'object' || Array.isArray(sample)) throw new Error('not a JSON object');
  } catch (err) {
    throw new InvalidArgumentError(`--${flag}: the template is not a JSON object once filled in (${(err as Error).message})`);
  }
  return compiled;
}

export function renderTemplate(t: CompiledTemplate, values: TemplateValues): string {
  let out = t.pieces[0];
  for (let k = 0; k < t.slots.length; k++) {
    const s = t.slots[k];
    const json = JSON.stringify(values[s.name] ?? null);
    out +=
      (s.mode === 'value' ? json : typeof values[s.name] === 'string' ? json.slice(1, -1) : JSON.stringify(json).slice(1, -1)) +
      t.pieces[k + 1];
  }
  return out;
}
