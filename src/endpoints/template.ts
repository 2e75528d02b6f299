// --endpoint-type template: any JSON-over-HTTP server. The body comes from --template-file (see
// template-body.ts); the response is read at the user's field paths (--response-content-path and
// the rest, --response-finish-path included), on SSE events and whole bodies alike. The paths
// become the native decoder's DecodeSpec: a content path through an array (`outputs[*].text`) is
// decoded natively, as the OpenAI adapters are; one without an array has no `choices` for the
// native decoder to walk, so every event that holds the content's, reasoning's or error's
// top-level key is left to parse() (see flatSpec), with the same stamps; only events without any
// of them (usage-only) are read natively. The finish path is read from the root either way.
import type { BodySettings, EndpointAdapter, Payload } from './types.js';
import { InvalidArgumentError, PayloadParseError } from '../errors.js';
import type { Turn } from '../model/turn.js';
import type { Usage } from '../model/usage.js';
import { decodeJson } from './common.js';
import { first, firstText, firstTextOf, parseFieldPath, type FieldPath } from './field-path.js';
import { compileTemplate, renderTemplate } from './template-body.js';
import type { DecodeSpec } from '../model/decoded.js';
import { usageOfPayload } from './usage.js';
import type { TemplateSettings } from './template-config.js';

function path(flag: string, text: string): FieldPath {
  const p = parseFieldPath(text);
  if (p === null || text === '')
    throw new InvalidArgumentError(
      `--${flag}: not a field path (dot-separated keys, key[*] for each element, (a|b) for the first non-null)`,
    );
  return p;
}

/** Splits `a.b[*].c.d` at its first `[*]`: the array's path and the path within each element. */
function splitAtArray(text: string): [string, string] | null {
  const i = text.indexOf('[*]');
  if (i < 0) return null;
  return [text.slice(0, i), text.slice(i + 3).replace(/^\./, '')];
}

function isObj(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Checks the paths (bad input names the flag) and builds the adapter. */
export function templateAdapter(s: TemplateSettings): EndpointAdapter {
  const body = compileTemplate(s.text);
  const contentPath = path('response-content-path', s.content_path);
  const reasoningPath = s.reasoning_path === null ? null : path('response-reasoning-path', s.reasoning_path);
  const usagePath = path('response-usage-path', s.usage_path);
  const errorPath = path('response-error-path', s.error_path);
  const finishPaths = s.finish_path === null ? [] : [path('response-finish-path', s.finish_path)];

  const split = splitAtArray(s.content_path);
  if (split && split[1] === '')
    throw new InvalidArgumentError('--response-content-path: must name a field within each element, not end in [*]');
  const rsplit = s.reasoning_path === null ? null : splitAtArray(s.reasoning_path);
  // Native decode needs the texts inside one array (the decoder's `choices`), reasoning in the same one.
  const native = split !== null && (s.reasoning_path === null || (rsplit !== null && rsplit[0] === split[0] && rsplit[1] !== ''));
  const choicesPath = native ? path('response-content-path', split[0]) : null;
  const within = native ? path('response-content-path', split[1]) : null;
  const reasoningWithin = native && rsplit ? path('response-reasoning-path', rsplit[1]) : null;

  const decodeSpec: DecodeSpec = native
    ? {
        choices: split[0],
        message: '',
        content: [split[1]],
        reasoning: rsplit ? [rsplit[1]] : [],
        usage: [{ path: s.usage_path, test: 'object' }],
        error: s.error_path,
        spec_decode: [],
        finish: finishSpec(s),
      }
    : flatSpec(s);

  return {
    type: 'template',
    buildBody(turn: Turn, cfg: Pick<BodySettings, 'model' | 'streaming' | 'extra_inputs'>) {
      const text = renderTemplate(body, {
        prompt: turn.prompt,
        max_tokens: turn.max_tokens,
        model: cfg.model,
        stream: cfg.streaming,
        messages: turn.messages ?? [{ role: 'user', content: turn.prompt }],
      });
      return { ...(JSON.parse(text) as Record<string, unknown>), ...cfg.extra_inputs };
    },
    parse(data: string): Payload {
      if (data === '[DONE]') return { kind: 'done' };
      const o = decodeJson(data);
      const e = first(o, errorPath);
      if (e !== undefined && e !== null) return { kind: 'error', message: errorMessage(e) };
      let content = '';
      let reasoning = '';
      let has_choices: boolean;
      if (native) {
        // As the native decoder reads it: each object element of the array, its first non-empty text.
        const arr = first(o, choicesPath!);
        has_choices = Array.isArray(arr) && arr.length > 0;
        for (const el of Array.isArray(arr) ? arr : []) {
          if (!isObj(el)) continue;
          content += firstText(el, within!);
          if (reasoningWithin) reasoning += firstText(el, reasoningWithin);
        }
      } else {
        content = firstText(o, contentPath);
        reasoning = reasoningPath ? firstText(o, reasoningPath) : '';
        has_choices = first(o, contentPath) !== undefined;
      }
      const u = first(o, usagePath, isObj);
      const p: Payload = { kind: 'data', content, reasoning, has_choices, usage: u === undefined ? null : usageOfPayload({ usage: u }) };
      // Read at the root as the native decoder reads it, so both transports give the same.
      const f = firstTextOf(o, finishPaths);
      if (f !== null) p.finish_reason = f;
      return p;
    },
    decodeSpec,
    usageOfSlice(_source: number, text: string): Usage | null {
      let v: unknown;
      try {
        v = JSON.parse(text);
      } catch {
        throw new PayloadParseError('invalid JSON in the usage of a response');
      }
      return isObj(v) ? usageOfPayload({ usage: v }) : null;
    },
  };
}

/** The first key of a path (`a` of `a.b[*].c`, `x` of `(x|y).z`): the top-level keys it may start at. */
function topKeys(text: string): string[] {
  const head = text.split('.')[0].replace(/(\[\*\])+$/, '');
  return head.startsWith('(') ? head.slice(1, -1).split('|') : [head];
}

/**
 * A flat content path: the native decoder's error test is the first non-null of the top-level keys
 * the content, reasoning and error paths start at, so any event holding one is handed to parse().
 */
function flatSpec(s: TemplateSettings): DecodeSpec {
  const keys = [...new Set([s.content_path, s.reasoning_path ?? '', s.error_path].filter((p) => p !== '').flatMap(topKeys))];
  const error = keys.length === 1 ? keys[0] : `(${keys.join('|')})`;
  return {
    choices: keys[0],
    message: '',
    content: [],
    reasoning: [],
    usage: [{ path: s.usage_path, test: 'object' }],
    error,
    spec_decode: [],
    finish: finishSpec(s),
  };
}

/** The finish path is read from the payload's root, whichever way the texts are decoded. */
function finishSpec(s: TemplateSettings): string[] {
  return s.finish_path === null ? [] : [s.finish_path];
}

function errorMessage(e: unknown): string {
  if (typeof e === 'string') return e;
  if (isObj(e) && typeof e.message === 'string') return e.message;
  return JSON.stringify(e);
}
