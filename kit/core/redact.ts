/**
 * Secrets (the run's tokens, and tokens learned during it) never leave the run: not in evidence,
 * assertion messages, terminal output nor any report. A target may hand a token back in any
 * form it likes, so each secret is also removed as it looks percent-encoded (either case of hex),
 * form-encoded, escaped inside a JSON string (also with `\/`, PHP's default, and with every
 * non-ASCII character as `\uXXXX`), in base64 (standard and URL-safe, alone or inside a longer
 * base64 text), in any letter case, and with anything a reader does not see between its
 * characters: a line break (or an escaped one) and the next line's indent, and zero-width or
 * format characters (U+200B, U+2060, U+FEFF, a soft hyphen, any Unicode Cf or default-ignorable
 * character), as they are, JSON-escaped, percent-encoded or as HTML character references.
 */
export const REDACTED = '***';

/** Shorter values are not treated as secrets: redacting "abc" would mangle ordinary text. */
const MIN_SECRET_LENGTH = 4;
/** Base64 of a shorter secret is too short to tell from ordinary base64 text. */
const MIN_BASE64_SECRET_LENGTH = 8;

/**
 * The forms of each secret met so far: every exchange is redacted with every secret, and a run
 * knows a handful of secrets but sends thousands of requests. Bounded all the same.
 */
const formsOf = new Map<string, readonly string[]>();
const MAX_CACHED_SECRETS = 1000;

export function secretForms(secret: string): readonly string[] {
  if (secret.length < MIN_SECRET_LENGTH) return [];
  let forms = formsOf.get(secret);
  if (forms === undefined) {
    if (formsOf.size >= MAX_CACHED_SECRETS) formsOf.clear();
    forms = formsFor(secret);
    formsOf.set(secret, forms);
  }
  return forms;
}

function formsFor(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1);
  const forms = new Set([
    secret,
    encodeURIComponent(secret),
    new URLSearchParams({ s: secret }).toString().slice(2),
    json,
    json.replace(/\//g, '\\/'),
    json.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
    ...(secret.length >= MIN_BASE64_SECRET_LENGTH ? base64Forms(secret) : []),
  ]);
  // Longest first, so that a form containing another is removed whole.
  return [...forms].map(lower).sort((a, b) => b.length - a.length);
}

/**
 * The secret's bytes in base64 at each of the three offsets it may start at inside a longer
 * base64 text (`Basic` credentials, a token inside an encoded cursor): only the characters made
 * of the secret's bits alone, which are the same whatever surrounds it.
 */
function base64Forms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const out: string[] = [];
  for (let shift = 0; shift < 3; shift++) {
    const text = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
    const inner = text.slice(Math.ceil((8 * shift) / 6), Math.floor((8 * (shift + bytes.length)) / 6));
    out.push(inner, inner.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return out;
}

const INVISIBLE = /^[\p{Cf}\p{Default_Ignorable_Code_Point}]$/u;
/**
 * What a reader does not see between two characters: a line break, raw or escaped, with the next
 * line's indent; an invisible character; and, decoded by `isGap`, an invisible character
 * JSON-escaped, percent-encoded (its whole UTF-8 sequence) or as an HTML character reference.
 */
const GAP = new RegExp(
  [
    /(?:\r?\n|\\r\\n|\\n)[ \t]*/,
    /[\p{Cf}\p{Default_Ignorable_Code_Point}]/u,
    /\\u[0-9a-f]{4}/,
    /%[cd][0-9a-f]%[89ab][0-9a-f]|%e[0-9a-f](?:%[89ab][0-9a-f]){2}|%f[0-7](?:%[89ab][0-9a-f]){3}/,
    /&#(?:x[0-9a-f]{1,6}|\d{1,7});/,
  ]
    .map((part) => part.source)
    .join('|'),
  'giu',
);
/** Characters a gap starts with: a text without any has none, and is searched as it is. */
const GAP_START = /[\r\n\\%&\p{Cf}\p{Default_Ignorable_Code_Point}]/u;

function isGap(match: string): boolean {
  const c = match.charCodeAt(0);
  if (c === 0x0a || c === 0x0d || (match[0] === '\\' && match[1] !== 'u')) return true;
  let decoded: string;
  if (match[0] === '\\') decoded = String.fromCharCode(Number.parseInt(match.slice(2), 16));
  else if (match[0] === '%') {
    try {
      decoded = decodeURIComponent(match);
    } catch {
      return false;
    }
  } else if (match[0] === '&') {
    const point =
      match[2] === 'x' || match[2] === 'X' ? Number.parseInt(match.slice(3), 16) : Number(match.slice(2, -1));
    if (!(point <= 0x10ffff)) return false;
    decoded = String.fromCodePoint(point);
  } else decoded = match;
  return INVISIBLE.test(decoded);
}

const sortedForms = new Map<string, readonly string[]>();

/** Every form of every secret, longest first (kept: the same few secrets redact every exchange). */
function formsOfAll(secrets: readonly string[]): readonly string[] {
  const key = secrets.join('\u0000');
  let forms = sortedForms.get(key);
  if (!forms) {
    forms = [...new Set(secrets.flatMap(secretForms))].sort((a, b) => b.length - a.length);
    if (sortedForms.size > 64) sortedForms.clear();
    sortedForms.set(key, forms);
  }
  return forms;
}

/** Lower case one code unit at a time, so that positions map back to the text (see skeleton). */
function lower(text: string): string {
  const lowered = text.toLowerCase();
  if (lowered.length === text.length) return lowered;
  let out = '';
  for (let i = 0; i < text.length; i++) out += text[i]!.toLowerCase()[0];
  return out;
}

/**
 * The text as a reader sees it, lower-cased, with where each of its code units came from: what
 * the forms are looked for in.
 */
function skeleton(text: string): { flat: string; from: number[] } {
  const from: number[] = [];
  let flat = '';
  let at = 0;
  const keep = (end: number) => {
    const part = lower(text.slice(at, end));
    for (let i = 0; i < part.length; i++) from.push(at + i);
    flat += part;
  };
  for (const m of text.matchAll(GAP)) {
    if (!isGap(m[0])) continue;
    keep(m.index);
    at = m.index + m[0].length;
  }
  keep(text.length);
  return { flat, from };
}

export function redactText(text: string, secrets: Iterable<string>): string {
  const live = [...secrets].filter((s) => s.length >= MIN_SECRET_LENGTH);
  if (live.length === 0 || text.length < MIN_SECRET_LENGTH) return text;
  const forms = formsOfAll(live);
  // Most texts hold no secret: a plain search (gaps taken out, one case) says so cheaply.
  const gaps = GAP_START.test(text);
  const plain = gaps ? text.replace(GAP, (m) => (isGap(m) ? '' : m)) : text;
  const probe = lower(plain);
  if (!forms.some((f) => probe.includes(f))) return text;
  const { flat, from } = gaps ? skeleton(text) : { flat: probe, from: undefined };
  const at = (i: number) => (from ? from[i]! : i);
  // Spans of the text to replace, longest form first; a span inside one already taken is skipped.
  const taken = new Uint8Array(flat.length);
  const spans: Array<[number, number]> = [];
  for (const form of forms) {
    for (let i = flat.indexOf(form); i >= 0; i = flat.indexOf(form, i + 1)) {
      if (taken[i] || taken[i + form.length - 1]) continue;
      taken.fill(1, i, i + form.length);
      spans.push([at(i), at(i + form.length - 1) + 1]);
    }
  }
  spans.sort((a, b) => a[0] - b[0]);
  let out = '';
  let end = 0;
  for (const [s, e] of spans) {
    if (s < end) continue;
    out += text.slice(end, s) + REDACTED;
    end = e;
  }
  return out + text.slice(end);
}

/** Every string of a JSON-like value (keys included), redacted: the final pass over a report. */
export function redactDeep<T>(value: T, secrets: readonly string[]): T {
  const live = secrets.filter((s) => s.length >= MIN_SECRET_LENGTH);
  if (live.length === 0) return value;
  const walk = (node: unknown): unknown => {
    if (typeof node === 'string') return redactText(node, live);
    if (Array.isArray(node)) return node.map(walk);
    if (node !== null && typeof node === 'object') {
      return Object.fromEntries(Object.entries(node).map(([k, v]) => [redactText(k, live), walk(v)]));
    }
    return node;
  };
  return walk(value) as T;
}
