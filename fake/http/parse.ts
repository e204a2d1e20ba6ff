import secureJson from 'secure-json-parse';
import { DomainError, invalid } from '../service/errors.js';

const decoder = new TextDecoder('utf-8', { fatal: true });
/** A valid request nests three levels deep and has a dozen fields: these bound what JSON.parse is given. */
export const MAX_BODY_DEPTH = 32;
export const MAX_BODY_MEMBERS = 1_000;
export const MAX_BODY_CONTAINERS = 1_000;

/**
 * Strict UTF-8 and JSON, in shapes a request can have: at most MAX_BODY_DEPTH levels,
 * MAX_BODY_MEMBERS object members and MAX_BODY_CONTAINERS objects and arrays, checked by one pass
 * over the text before JSON.parse builds anything (JSON.parse of 2 MiB of 260,000 distinct keys, of
 * `[`, or of a million `[1]`, takes 200 to 450 ms; the pass, a few). Parsed by secure-json-parse
 * (Fastify's parser): `__proto__` and `constructor.prototype` keys anywhere are refused.
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
  try {
    return secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (error) {
    const message = (error as Error).message;
    if (error instanceof SyntaxError && !/prototype/i.test(message))
      throw invalid(`the body is not valid JSON: ${message.slice(0, 120)}`);
    throw invalid('the body has a __proto__ or constructor.prototype key, which reaches an object prototype');
  }
}

/**
 * The deepest nesting, the number of object members (colons outside strings) and of objects and
 * arrays, stopping as soon as a bound is passed; malformed text is left to JSON.parse, whose message the client gets.
 */
function measure(text: string): { depth: number; members: number; containers: number } {
  let containers = 0;
  let depth = 0;
  let deepest = 0;
  let members = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: skip to its closing quote, over escaped characters.
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x7b || c === 0x5b) {
      if (++containers > MAX_BODY_CONTAINERS) break;
      if (++depth > deepest && (deepest = depth) > MAX_BODY_DEPTH) break;
    } else if (c === 0x7d || c === 0x5d) depth--;
    else if (c === 0x3a && ++members > MAX_BODY_MEMBERS) break;
  }
  return { depth: deepest, members, containers };
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
