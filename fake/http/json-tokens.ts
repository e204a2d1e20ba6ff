/**
 * The tokens of a JSON text as the body scan reads them (json-scan.ts): whitespace, strings,
 * numbers, and runs of simple items skipped by bounded sticky regular expressions, which V8 runs as
 * native code (a loop over 4 MiB one character at a time cost about as much as JSON.parse). Each
 * skip answers where the token ends, or -1-position of a syntax error.
 */

/** Keys the http layer refuses anywhere in a body (they reach prototypes in careless code). */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

export enum C {
  Tab = 9,
  Lf = 10,
  Cr = 13,
  Space = 32,
  Quote = 34,
  Comma = 44,
  Minus = 45,
  Dot = 46,
  Zero = 48,
  Nine = 57,
  Colon = 58,
  OpenBracket = 91,
  Backslash = 92,
  CloseBracket = 93,
  LowerE = 101,
  UpperE = 69,
  Plus = 43,
  OpenBrace = 123,
  CloseBrace = 125,
}

/** A run of string characters needing no attention (native regex: far faster than a loop). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: JSON strings may not hold raw controls
const PLAIN_RUN = /[^"\\\u0000-\u001f]*/y;
/** Escapes, each with the plain run after it; bounded, so the regex's backtracking stack stays small. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: JSON strings may not hold raw controls
const ESCAPE_RUN = /(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})[^"\\\u0000-\u001f]*){1,4096}/y;
const WS = '[ \\t\\n\\r]*';
/** A number, a string without escapes, or a literal. */
const SCALAR = `(?:-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|"[^"\\\\\\u0000-\\u001f]*"|true|false|null)`;
/** A value that needs no stack: a scalar, or an empty container. */
const SIMPLE = `(?:${SCALAR}|\\{${WS}\\}|\\[${WS}\\])`;
/** A key without escapes that is not refused, and its colon. */
const KEY = `"(?!(?:__proto__|constructor|prototype)")[^"\\\\\\u0000-\\u001f]*"${WS}:${WS}`;
/**
 * A container of up to 32 simple values (under keys as above): such small containers side by side
 * ([1],[1],... or {"a":1},{"a":1},...) cost the scan's loop about 100 ns each, 100 to 200 ms for
 * a 4 MiB array of them. Bounded, so the regex's backtracking stack stays small.
 */
const FLAT = `(?:\\[${WS}${SIMPLE}(?:${WS},${WS}${SIMPLE}){0,31}${WS}\\]|\\{${WS}${KEY}${SIMPLE}(?:${WS},${WS}${KEY}${SIMPLE}){0,31}${WS}\\})`;
/**
 * Array items that need no stack, each followed by its comma (the last item is read one by one).
 * At most 1,024 a run: the scan logs each run as one range JSON.parse may skip, and one ending too
 * close to a syntax error is built by JSON.parse.
 */
export const ARRAY_RUN = new RegExp(`(?:(?:${SIMPLE}|${FLAT})${WS},${WS}){1,1024}`, 'y');
/** Object members the same. */
export const MEMBER_RUN = new RegExp(`(?:${KEY}(?:${SIMPLE}|${FLAT})${WS},${WS}){1,1024}`, 'y');

/** Past every match of a sticky, bounded run regex from i. */
export function skipRuns(run: RegExp, text: string, i: number): number {
  run.lastIndex = i;
  while (run.test(text)) {
    i = run.lastIndex;
    run.lastIndex = i;
  }
  return i;
}

export function isWs(c: number): boolean {
  return c === C.Space || c === C.Lf || c === C.Cr || c === C.Tab;
}

export function skipWs(text: string, i: number): number {
  const n = text.length;
  while (i < n && isWs(text.charCodeAt(i))) i++;
  return i;
}

/** Strings up to this long are read in a loop before the regex takes over. */
const SHORT_STRING = 32;

/** The end of the string starting at i (after its closing quote), or -1-position of the error. */
export function skipString(text: string, i: number): number {
  const n = text.length;
  // Short plain strings (keys, mostly) end here: a regex call costs more than reading them.
  const short = Math.min(n, i + 1 + SHORT_STRING);
  for (let j = i + 1; j < short; j++) {
    const c = text.charCodeAt(j);
    if (c === C.Quote) return j + 1;
    if (c === C.Backslash || c < C.Space) break;
  }
  PLAIN_RUN.lastIndex = i + 1;
  PLAIN_RUN.test(text);
  i = PLAIN_RUN.lastIndex;
  for (;;) {
    if (i >= n) return -1 - i;
    const c = text.charCodeAt(i);
    if (c === C.Quote) return i + 1;
    if (c !== C.Backslash) return -1 - i; // a control character
    ESCAPE_RUN.lastIndex = i;
    if (!ESCAPE_RUN.test(text)) return -1 - i; // a bad escape
    i = ESCAPE_RUN.lastIndex;
  }
}

/**
 * Where the string starting at i would end (after its closing quote) by its quotes alone: the first
 * quote after i with an even number of backslashes before it, or -1. Native searches (indexOf), no
 * check of what lies between.
 */
export function quotedEnd(text: string, i: number): number {
  let q = i;
  for (;;) {
    q = text.indexOf('"', q + 1);
    if (q === -1) return -1;
    let b = q - 1;
    while (text.charCodeAt(b) === C.Backslash) b--;
    if ((q - 1 - b) % 2 === 0) return q + 1;
  }
}

export function isDigit(c: number): boolean {
  return c >= C.Zero && c <= C.Nine;
}

/** The end of the number starting at i, or -1-position of the error: -?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)? */
export function skipNumber(text: string, i: number): number {
  if (text.charCodeAt(i) === C.Minus) i++;
  let c = text.charCodeAt(i);
  if (c === C.Zero) i++;
  else if (isDigit(c)) while (isDigit(text.charCodeAt(i))) i++;
  else return -1 - i;
  if (text.charCodeAt(i) === C.Dot) {
    i++;
    if (!isDigit(text.charCodeAt(i))) return -1 - i;
    while (isDigit(text.charCodeAt(i))) i++;
  }
  c = text.charCodeAt(i);
  if (c === C.LowerE || c === C.UpperE) {
    i++;
    c = text.charCodeAt(i);
    if (c === C.Plus || c === C.Minus) i++;
    if (!isDigit(text.charCodeAt(i))) return -1 - i;
    while (isDigit(text.charCodeAt(i))) i++;
  }
  return i;
}

/** A key's text: sliced when it has no escape, else decoded by JSON.parse (a short string). */
export function keyAt(text: string, start: number, end: number): string {
  const raw = text.slice(start + 1, end - 1);
  return raw.includes('\\') ? (JSON.parse(text.slice(start, end)) as string) : raw;
}

/** Could this key be a refused one? Only lengths 9 and 11, or an escaped key, need decoding. */
export function mayBeForbidden(text: string, start: number, end: number): boolean {
  const length = end - start - 2;
  // Compared in place: a string per key of 9 or 11 characters cost a body of 466,000 of them.
  if (length === 9) return text.startsWith('__proto__', start + 1) || text.startsWith('prototype', start + 1);
  if (length === 11) return text.startsWith('constructor', start + 1);
  // An escaped letter takes 6 characters: an escaped refused key has at least 14.
  return length >= 14 && hasEscape(text, start + 1, end - 1) && FORBIDDEN_KEYS.has(keyAt(text, start, end));
}

/** Is there a backslash in [from, to)? (Not indexOf: a miss would search the rest of the body.) */
export function hasEscape(text: string, from: number, to: number): boolean {
  for (let j = from; j < to; j++) if (text.charCodeAt(j) === C.Backslash) return true;
  return false;
}

/** Where the last item of a run ends: before the whitespace, comma and whitespace that end the run at i. */
export function lastItemEnd(text: string, i: number): number {
  while (isWs(text.charCodeAt(i - 1))) i--;
  i--; // the comma
  while (isWs(text.charCodeAt(i - 1))) i--;
  return i;
}
