import { DomainError, invalid } from '../service/errors.js';

const decoder = new TextDecoder('utf-8', { fatal: true });

/** Keys that would reach an object's prototype if a body were ever merged into a plain object. */
const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);
/** A valid request nests three levels deep and has a dozen fields: these bound what JSON.parse is given. */
export const MAX_BODY_DEPTH = 32;
export const MAX_BODY_MEMBERS = 1_000;
export const MAX_BODY_CONTAINERS = 1_000;

/**
 * Strict UTF-8 and JSON, in shapes a request can have: at most MAX_BODY_DEPTH levels,
 * MAX_BODY_MEMBERS object members and MAX_BODY_CONTAINERS objects and arrays, checked by one pass
 * over the text before JSON.parse builds anything (JSON.parse of 2 MiB of 260,000 distinct keys, of
 * `[`, or of a million `[1]`, takes 200 to 450 ms; the pass, a few). Refuses prototype-polluting
 * keys anywhere in the document.
 */
export function parseJsonBody(body: Uint8Array | string | undefined, contentType: string | undefined): unknown {
  const text = bodyText(body, contentType);
  if (text === undefined) return undefined;
  const shape = measure(text);
  if (shape.depth > MAX_BODY_DEPTH)
    throw invalid(`the body nests deeper than ${MAX_BODY_DEPTH} levels; no request of this API needs more than 3`);
  if (shape.members > MAX_BODY_MEMBERS)
    throw invalid(
      `the body has more than ${MAX_BODY_MEMBERS} object members; no request of this API needs more than a dozen`,
    );
  if (shape.containers > MAX_BODY_CONTAINERS)
    throw invalid(
      `the body has more than ${MAX_BODY_CONTAINERS} objects and arrays; no request of this API needs more than a few`,
    );
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw invalid(`the body is not valid JSON: ${(error as Error).message.slice(0, 120)}`);
  }
  // Only a text that could spell such a key (plainly, or with an escape) is walked for one.
  if (shape.escapes || /__proto__|constructor|prototype/.test(text)) assertSafeKeys(value);
  return value;
}

/**
 * The deepest nesting, the number of object members (colons outside strings) and of objects and
 * arrays, stopping as soon as a bound is passed; malformed text is left to JSON.parse, whose message the client gets.
 */
function measure(text: string): { depth: number; members: number; containers: number; escapes: boolean } {
  let containers = 0;
  let depth = 0;
  let deepest = 0;
  let members = 0;
  let escapes = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: skip to its closing quote, over escaped characters.
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) {
          escapes = true;
          i++;
        } else if (d === 0x22) break;
      }
    } else if (c === 0x7b || c === 0x5b) {
      if (++containers > MAX_BODY_CONTAINERS) break;
      if (++depth > deepest && (deepest = depth) > MAX_BODY_DEPTH) break;
    } else if (c === 0x7d || c === 0x5d) depth--;
    else if (c === 0x3a && ++members > MAX_BODY_MEMBERS) break;
  }
  return { depth: deepest, members, containers, escapes };
}

function bodyText(body: Uint8Array | string | undefined, contentType: string | undefined): string | undefined {
  if (body === undefined || body.length === 0) return undefined;
  if (contentType !== undefined && !/^application\/([\w.+-]+\+)?json\b/i.test(contentType.trim())) {
    throw new DomainError('validation', `unsupported content type ${contentType.split(';')[0]}; send application/json`);
  }
  try {
    return typeof body === 'string' ? body : decoder.decode(body);
  } catch {
    throw invalid('the body is not valid UTF-8');
  }
}

/** Iterative, so a deeply nested document cannot overflow the stack. */
function assertSafeKeys(root: unknown): void {
  if (root === null || typeof root !== 'object') return;
  const stack: object[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const item: unknown = node[i];
        if (item !== null && typeof item === 'object') stack.push(item);
      }
      continue;
    }
    for (const key of Object.keys(node)) {
      if (FORBIDDEN_KEYS.has(key)) throw invalid(`the key ${JSON.stringify(key)} is not allowed`);
      const value: unknown = (node as Record<string, unknown>)[key];
      if (value !== null && typeof value === 'object') stack.push(value);
    }
  }
}

/** Query parameters as a null-prototype map; a repeated parameter is refused. */
export function parseQuery(search: string): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  if (search === '') return out;
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(search);
  } catch {
    throw invalid('the query string is malformed');
  }
  for (const [key, value] of params) {
    if (key in out) throw invalid(`query parameter ${key} is given more than once`);
    out[key] = value;
  }
  return out;
}

export function header(
  headers: Readonly<Record<string, string | readonly string[] | undefined>> | undefined,
  name: string,
): string | undefined {
  const value = headers?.[name];
  return Array.isArray(value) ? value[0] : (value as string | undefined);
}
