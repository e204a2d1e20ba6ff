/**
 * A JSON body read without building what no answer reads (issue 19: JSON.parse took 0.5 to 1.2 s to
 * build a 4 MiB body of nested arrays or of 1,400,000 empty objects, and 0.1 s to build 200,000
 * unknown fields, before anything looked at them).
 *
 * One pass over the text checks the syntax JSON.parse accepts, without building anything. Then:
 * - a body that is an object becomes a ScannedObject: its keys, in the order and with the
 *   de-duplication JSON.parse gives them (array-index keys first, ascending; a repeated key keeps
 *   its first place and its last value), each value built only when asked for (the http layer asks
 *   for the route's own fields only; an unknown field's value is never read, whatever the profile);
 * - a value is built two levels deep: a field's value, and its items or inner fields. A container
 *   nested deeper is never read by any route (every body field is a scalar, an array of scalars or
 *   an object of scalars; a deeper container is refused by its type alone, `collections[0] must be
 *   a UUID`), so it stands as a shared, frozen, empty array or object of its kind;
 * - a body JSON.parse refuses, or one holding a key the http layer refuses (`__proto__`,
 *   `constructor`, `prototype`), is handed back as a text of the same length for JSON.parse to give
 *   today's answer: the same error at the same position. Containers that cannot change that answer
 *   (complete well before the syntax error; holding no refused key) are replaced by `0` and spaces
 *   first, so JSON.parse does not build them either. The scan logs them as it passes them
 *   (json-skippable.ts): a refusal needs no second pass over the text, unless the body held too
 *   many of them to log on the way.
 *
 * The pass itself skips runs of simple items (scalars, empty containers) with bounded sticky
 * regular expressions, which V8 runs as native code: a loop over 4 MiB one character at a time cost
 * about as much as JSON.parse.
 *
 * Hand-written because no package found does this: fast-json (path callbacks) and
 * fast-json-parser accept malformed JSON, simdjson is an unmaintained native addon, and none gives
 * JSON.parse's error messages or its key order, both of which are part of today's answers.
 *
 * test/fake/json-scan.property.test.ts compares every outcome with JSON.parse on random texts, and
 * whole answers of the fake with the old parsing and this one.
 */

import { SkippableRanges } from './json-skippable.js';

/** Keys the http layer refuses anywhere in a body (they reach prototypes in careless code). */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** What stands for a container nested too deep to be read. */
const DEEP_ARRAY: readonly unknown[] = Object.freeze([]);
const DEEP_OBJECT: Readonly<Record<string, unknown>> = Object.freeze({});

/** Characters kept untouched on either side of a syntax error (V8 quotes 10 on each side). */
const ERROR_MARGIN = 64;

/** An object body: its keys as Object.keys would list them, each value built on demand. */
export class ScannedObject {
  constructor(
    private readonly text: string,
    /** Per distinct key, in Object.keys order: where its (first) key starts and ends (quotes included). */
    private readonly keyStarts: Int32Array,
    private readonly keyEnds: Int32Array,
    /** Where its (last) value starts and ends. */
    private readonly valueStarts: Int32Array,
    private readonly valueEnds: Int32Array,
    /** Keys holding an escape, decoded, by their place in the order. */
    private readonly decoded: ReadonlyMap<number, string> | undefined,
  ) {}

  get size(): number {
    return this.keyStarts.length;
  }

  /** The i-th key in Object.keys order. */
  key(i: number): string {
    return this.decoded?.get(i) ?? this.text.slice(this.keyStarts[i]! + 1, this.keyEnds[i]! - 1);
  }

  /** key(i) when it is one of `names`, else undefined; compared in place (no string per key). */
  keyAmong(i: number, names: readonly string[]): string | undefined {
    const decoded = this.decoded?.get(i);
    if (decoded !== undefined) return names.includes(decoded) ? decoded : undefined;
    const from = this.keyStarts[i]! + 1;
    const length = this.keyEnds[i]! - 1 - from;
    for (const name of names) if (name.length === length && this.text.startsWith(name, from)) return name;
    return undefined;
  }

  /** Every key in Object.keys order. */
  allKeys(): string[] {
    return Array.from(this.keyStarts, (_, i) => this.key(i));
  }

  /** The value of key(i) (the last one sent under that key), built two levels deep. */
  value(i: number): unknown {
    const start = this.valueStarts[i]!;
    const end = this.valueEnds[i]!;
    // No container inside (a bracket in a string only sends it the long way): JSON.parse builds
    // it, faster than build() for an array of a million strings.
    const text = this.text;
    if (text.charCodeAt(start) !== C.OpenBracket && text.charCodeAt(start) !== C.OpenBrace)
      return JSON.parse(text.slice(start, end));
    const within = (bracket: string) => {
      const at = text.indexOf(bracket, start + 1);
      return at !== -1 && at < end;
    };
    if (!within('[') && !within('{')) return JSON.parse(text.slice(start, end));
    return build(text, start, 1);
  }

  /** The whole body as JSON.parse builds it (for callers that need every field). */
  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}

export type Scanned =
  | { readonly kind: 'object'; readonly object: ScannedObject }
  | { readonly kind: 'value'; readonly value: unknown }
  /** JSON.parse of `text` gives today's error (syntax) or a value whose refused key is today's. */
  | { readonly kind: 'reparse'; readonly text: string };

enum C {
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
/** Array items that need no stack, each followed by its comma (the last item is read one by one). */
const ARRAY_RUN = new RegExp(`(?:${SIMPLE}${WS},${WS}){1,4096}`, 'y');
/** Object members the same, under keys without escapes that are not refused. */
const MEMBER_RUN = new RegExp(
  `(?:"(?!(?:__proto__|constructor|prototype)")[^"\\\\\\u0000-\\u001f]*"${WS}:${WS}${SIMPLE}${WS},${WS}){1,4096}`,
  'y',
);

/** Past every match of a sticky, bounded run regex from i. */
function skipRuns(run: RegExp, text: string, i: number): number {
  run.lastIndex = i;
  while (run.test(text)) {
    i = run.lastIndex;
    run.lastIndex = i;
  }
  return i;
}

function isWs(c: number): boolean {
  return c === C.Space || c === C.Lf || c === C.Cr || c === C.Tab;
}

function skipWs(text: string, i: number): number {
  const n = text.length;
  while (i < n && isWs(text.charCodeAt(i))) i++;
  return i;
}

/** Strings up to this long are read in a loop before the regex takes over. */
const SHORT_STRING = 32;

/** The end of the string starting at i (after its closing quote), or -1-position of the error. */
function skipString(text: string, i: number): number {
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

function isDigit(c: number): boolean {
  return c >= C.Zero && c <= C.Nine;
}

/** The end of the number starting at i, or -1-position of the error: -?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)? */
function skipNumber(text: string, i: number): number {
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
function keyAt(text: string, start: number, end: number): string {
  const raw = text.slice(start + 1, end - 1);
  return raw.includes('\\') ? (JSON.parse(text.slice(start, end)) as string) : raw;
}

/** Could this key be a refused one? Only lengths 9 and 11, or an escaped key, need decoding. */
function mayBeForbidden(text: string, start: number, end: number): boolean {
  const length = end - start - 2;
  if (length === 9 || length === 11) return FORBIDDEN_KEYS.has(text.slice(start + 1, end - 1));
  // An escaped letter takes 6 characters: an escaped refused key has at least 14.
  return length >= 14 && hasEscape(text, start + 1, end - 1) && FORBIDDEN_KEYS.has(keyAt(text, start, end));
}

/** Is there a backslash in [from, to)? (Not indexOf: a miss would search the rest of the body.) */
function hasEscape(text: string, from: number, to: number): boolean {
  for (let j = from; j < to; j++) if (text.charCodeAt(j) === C.Backslash) return true;
  return false;
}

/** The array index a key names, as V8 orders them (0 to 2^32-2), or -1. */
function arrayIndex(key: string): number {
  if (key.length === 0 || key.length > 10) return -1;
  if (!/^(?:0|[1-9][0-9]*)$/.test(key)) return -1;
  const n = Number(key);
  return n <= 4294967294 ? n : -1;
}

/**
 * Scans a whole body. Iterative (a 4 MiB body nests 2,000,000 deep): typed stacks hold, for each
 * open container, its kind (1 array, 2 object, +4 once it holds a refused key) and where it opened.
 */
export function scanJson(text: string): Scanned {
  let scan = new Scan(text, FIRST_LOG_LIMIT);
  const error = scan.run();
  if (error === undefined && !scan.forbidden) return scan.result();
  if (scan.skippable.full) {
    // Refused, after too many ranges to log on the way: again, logging them all.
    scan = new Scan(text, Number.POSITIVE_INFINITY);
    scan.run();
  }
  return error === undefined ? scan.result() : reparse(text, error, scan.skippable);
}

/**
 * Ranges the first scan logs (about 600 KB): past that many, a refused body is scanned again to
 * log them all. Logging every range of a valid body of a million small arrays ([1],[1],...) cost it
 * 20 to 60 ms, its memory collected by the collector's threads; a body nested 2,000,000 deep logs
 * a few (see LOGGED_CLOSES).
 */
const FIRST_LOG_LIMIT = 1 << 16;

/**
 * Closing brackets in a run whose ranges are logged: the last ERROR_MARGIN + 1. An earlier one
 * ends inside one of them that ends ERROR_MARGIN characters before any syntax error, which lies at
 * or after the run's end (logging all 2,000,000 of a valid body's nested arrays cost it 30 to 70 ms).
 */
const LOGGED_CLOSES = ERROR_MARGIN + 1;

class Scan {
  private readonly n: number;
  /**
   * The open containers: kind (+4 when it holds a refused key), and where each opened. Grown as the
   * nesting deepens: a malformed body may open one container a character.
   */
  private kinds = new Uint8Array(256);
  private starts = new Int32Array(256);
  forbidden = false;
  /**
   * Complete containers and runs of simple array items: what JSON.parse may skip after a syntax
   * error (those ending ERROR_MARGIN characters before it, see reparse) or when handed a refused
   * key (those holding none).
   */
  readonly skippable: SkippableRanges;
  /** The members of a root object: where each key and each value start. */
  private readonly rootObject: boolean;
  private readonly keyStarts: number[] = [];
  private readonly keyEnds: number[] = [];
  private readonly valueStarts: number[] = [];
  private readonly valueEnds: number[] = [];

  constructor(
    private readonly text: string,
    logLimit: number,
  ) {
    this.skippable = new SkippableRanges(logLimit);
    this.n = text.length;
    this.rootObject = text.charCodeAt(skipWs(text, 0)) === C.OpenBrace;
  }

  /** Reads `"key" :` at `at` in the object open at `depth`: where its value starts, or -1-error. */
  private member(at: number, depth: number): number {
    const text = this.text;
    const root = depth === 1 && this.rootObject;
    // Members of inner objects with simple values are skipped in runs (a root object's are recorded).
    if (!root) at = skipRuns(MEMBER_RUN, text, at);
    if (text.charCodeAt(at) !== C.Quote) return -1 - at;
    const end = skipString(text, at);
    if (end < 0) return end;
    if (mayBeForbidden(text, at, end)) {
      this.forbidden = true;
      this.kinds[depth - 1]! |= 4;
    }
    let j = skipWs(text, end);
    if (text.charCodeAt(j) !== C.Colon) return -1 - j;
    j = skipWs(text, j + 1);
    if (root) {
      this.keyStarts.push(at);
      this.keyEnds.push(end);
      this.valueStarts.push(j);
    }
    return j;
  }

  /**
   * A run of closing brackets closed the containers open at depths [depth, runDepth), the last one
   * (at `depth`) ending at `end`: logs the last LOGGED_CLOSES of them, and the outermost one holding
   * no refused key if it is older (it alone can stand in for a refused key: the inner ones lie in
   * it). Their starts are still on the stack (nothing opened since); their ends are found by
   * walking back over the brackets and whitespace of the run.
   */
  private closedRun(runDepth: number, depth: number, end: number): void {
    if (runDepth === depth || this.skippable.full) return;
    const { text, kinds, starts } = this;
    if (runDepth === depth + 1) {
      this.skippable.add(starts[depth]!, end, (kinds[depth]! & 4) !== 0);
      return;
    }
    const logged = this.logged;
    let count = 0;
    let cleanFound = false;
    for (let d = depth; d < runDepth; d++) {
      const refused = (kinds[d]! & 4) !== 0;
      const last = d - depth < LOGGED_CLOSES;
      if (last || (!refused && !cleanFound)) {
        logged[count++] = d;
        logged[count++] = end;
      }
      if (!refused) cleanFound = true;
      if ((!last && cleanFound) || d + 1 === runDepth) break;
      // The bracket closing the next inner container: the last one before this one's.
      let j = end - 2;
      while (isWs(text.charCodeAt(j))) j--;
      end = j + 1;
    }
    // Innermost first: ends increase.
    for (let k = count - 2; k >= 0; k -= 2) {
      const d = logged[k]!;
      this.skippable.add(starts[d]!, logged[k + 1]!, (kinds[d]! & 4) !== 0);
    }
  }

  /** Scratch for closedRun: (depth, end) pairs, outermost first. */
  private readonly logged = new Int32Array(2 * (LOGGED_CLOSES + 1));

  /** A stack four times deeper (doubling to 2,000,000 cost more copies). */
  private deeper(): void {
    const kinds = new Uint8Array(this.kinds.length * 4);
    const starts = new Int32Array(this.starts.length * 4);
    kinds.set(this.kinds);
    starts.set(this.starts);
    this.kinds = kinds;
    this.starts = starts;
  }

  /** The syntax error at i, or undefined when the text is valid. */
  run(): number | undefined {
    const { text, n } = this;
    let { kinds, starts } = this;
    let depth = 0;
    let i = skipWs(text, 0);
    // Set when i is on the bracket closing a container opened empty.
    let emptyClose = false;
    scan: for (;;) {
      // A value at i.
      if (i >= n) return i;
      let c = text.charCodeAt(i);
      if (c === C.OpenBracket) {
        // A run of brackets opening nested arrays (a hostile body nests 2,000,000 deep).
        do {
          if (depth === kinds.length) {
            this.deeper();
            ({ kinds, starts } = this);
          }
          kinds[depth] = 1;
          starts[depth++] = i++;
          c = text.charCodeAt(i);
        } while (c === C.OpenBracket);
        if (isWs(c)) {
          i = skipWs(text, i);
          c = text.charCodeAt(i);
        }
        if (c !== C.CloseBracket) continue;
        emptyClose = true; // closed below like any other
      } else if (c === C.OpenBrace) {
        if (depth === kinds.length) {
          this.deeper();
          ({ kinds, starts } = this);
        }
        kinds[depth] = 2;
        starts[depth++] = i;
        i = skipWs(text, i + 1);
        if (text.charCodeAt(i) !== C.CloseBrace) {
          i = this.member(i, depth);
          if (i < 0) return -1 - i;
          continue;
        }
        emptyClose = true;
      } else if (c === C.Quote) {
        i = skipString(text, i);
        if (i < 0) return -1 - i;
      } else if (c === C.Minus || isDigit(c)) {
        i = skipNumber(text, i);
        if (i < 0) return -1 - i;
      } else if (text.startsWith('true', i)) i += 4;
      else if (text.startsWith('false', i)) i += 5;
      else if (text.startsWith('null', i)) i += 4;
      else return i;

      // After a value ends at i (or i is on the bracket closing an empty container). The containers
      // this loop closes, a run of closing brackets, are logged when the run ends (closedRun).
      const runDepth = depth;
      let runEnd = i;
      for (;;) {
        if (depth === 0) {
          this.closedRun(runDepth, depth, runEnd);
          i = skipWs(text, i);
          return i < n ? i : undefined;
        }
        const kind = kinds[depth - 1]! & 3;
        const close = kind === 1 ? C.CloseBracket : C.CloseBrace;
        if (emptyClose) {
          emptyClose = false;
        } else {
          // The value just ended at i.
          if (depth === 1 && this.rootObject) this.valueEnds.push(i);
          c = text.charCodeAt(i);
          if (isWs(c)) {
            i = skipWs(text, i);
            c = text.charCodeAt(i);
          }
          if (c === C.Comma) {
            this.closedRun(runDepth, depth, runEnd);
            i = skipWs(text, i + 1);
            if (kind === 2) {
              i = this.member(i, depth);
              if (i < 0) return -1 - i;
            } else if (mayRun(text, i, text.charCodeAt(i))) {
              // Array items that need no stack, skipped in runs; the one that ends the run is read
              // as any value. Tried after a comma only: a run needs one, and a failed try per
              // one-item array ([1],[1],...) cost a 4 MiB body about 40 ms.
              const from = i;
              i = skipRuns(ARRAY_RUN, text, i);
              // The run's items (no keys in them) can be one stand-in (its last comma left out).
              if (i > from) this.skippable.add(from, lastItemEnd(text, i), false);
            }
            continue scan;
          }
          if (c !== close) {
            this.closedRun(runDepth, depth, runEnd);
            return i;
          }
        }
        depth--;
        i++;
        runEnd = i;
        // A refused key inside marks every container around it.
        if (kinds[depth]! & 4 && depth > 0) kinds[depth - 1]! |= 4;
      }
    }
  }

  /** After a run that found no syntax error. */
  result(): Scanned {
    const text = this.text;
    if (this.forbidden) {
      const { starts, ends } = this.skippable.maximal(Number.POSITIVE_INFINITY, true);
      return { kind: 'reparse', text: replaced(text, starts, ends, Number.POSITIVE_INFINITY) };
    }
    if (!this.rootObject) return { kind: 'value', value: build(text, skipWs(text, 0), 0) };
    return { kind: 'object', object: objectOf(text, this.keyStarts, this.keyEnds, this.valueStarts, this.valueEnds) };
  }
}

/** Where the last item of a run ends: before the whitespace, comma and whitespace that end the run at i. */
function lastItemEnd(text: string, i: number): number {
  while (isWs(text.charCodeAt(i - 1))) i--;
  i--; // the comma
  while (isWs(text.charCodeAt(i - 1))) i--;
  return i;
}

/** Could an array item at i start a run: a scalar, or an empty container. */
function mayRun(text: string, i: number, c: number): boolean {
  if (c === C.OpenBracket) return text.charCodeAt(skipWs(text, i + 1)) === C.CloseBracket;
  if (c === C.OpenBrace) return text.charCodeAt(skipWs(text, i + 1)) === C.CloseBrace;
  return true;
}

/** FNV-1a over UTF-16 units: of a key's raw text (no escape), or of a decoded key. */
function hashOf(text: string, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let k = from; k < to; k++) h = Math.imul(h ^ text.charCodeAt(k), 0x01000193);
  return h >>> 0;
}

/**
 * The members in JSON.parse's order: array-index keys ascending, then the others as first sent; a
 * repeated key keeps its first place and its last value. De-duplicated in a hash table over the
 * keys' text, without a string per key (a Map of 200,000 key strings cost 40 to 90 ms here).
 */
function objectOf(
  text: string,
  keyStarts: number[],
  keyEnds: number[],
  valueStarts: number[],
  valueEnds: number[],
): ScannedObject {
  // One loop a function: a site first reached after a hot loop is compiled without feedback, and
  // reaching it threw the whole function back to the interpreter (five times on the first body of
  // 200,000 fields, one loop after another).
  const decoded = decodedKeys(text, keyStarts, keyEnds);
  const { lastOf, first, distinct } = repeatedKeys(text, keyStarts, keyEnds, decoded);
  const indexed = arrayIndexKeys(text, keyStarts, keyEnds, decoded, first);
  const keysAt = new Int32Array(distinct);
  const keysEnd = new Int32Array(distinct);
  const valuesAt = new Int32Array(distinct);
  const valuesEnd = new Int32Array(distinct);
  let placedDecoded: Map<number, string> | undefined;
  let out = 0;
  const place = (k: number) => {
    const own = decoded?.get(k);
    if (own !== undefined) (placedDecoded ??= new Map()).set(out, own);
    keysAt[out] = keyStarts[k]!;
    keysEnd[out] = keyEnds[k]!;
    valuesAt[out] = valueStarts[lastOf[k]!]!;
    valuesEnd[out++] = valueEnds[lastOf[k]!]!;
  };
  // Array-index keys come first, ascending (V8 keeps them as elements), then the others in order.
  if (indexed.length > 0) {
    indexed.sort((a, b) => a[0] - b[0]);
    for (const [, k] of indexed) {
      place(k);
      first[k] = 0;
    }
  }
  if (decoded === undefined && indexed.length === 0) {
    out = placeInOrder(first, keyStarts, keyEnds, valueStarts, valueEnds, lastOf, keysAt, keysEnd, valuesAt, valuesEnd);
  } else {
    for (let k = 0; k < keyStarts.length; k++) if (first[k]) place(k);
  }
  return new ScannedObject(text, keysAt, keysEnd, valuesAt, valuesEnd, placedDecoded);
}

/** Keys holding an escape, decoded, by their member's place (undefined when none has one). */
function decodedKeys(text: string, keyStarts: number[], keyEnds: number[]): Map<number, string> | undefined {
  let decoded: Map<number, string> | undefined;
  for (let k = 0; k < keyStarts.length; k++) {
    if (hasEscape(text, keyStarts[k]! + 1, keyEnds[k]! - 1)) {
      decoded ??= new Map();
      decoded.set(k, JSON.parse(text.slice(keyStarts[k]!, keyEnds[k]!)) as string);
    }
  }
  return decoded;
}

/** Per member: whether it is its key's first (`first`), and for a first one its key's last member. */
function repeatedKeys(
  text: string,
  keyStarts: number[],
  keyEnds: number[],
  decoded: Map<number, string> | undefined,
): { lastOf: Int32Array; first: Uint8Array; distinct: number } {
  const m = keyStarts.length;
  const keyText = (k: number) => decoded?.get(k) ?? text.slice(keyStarts[k]! + 1, keyEnds[k]! - 1);
  let size = 16;
  while (size < m * 2) size <<= 1;
  const table = new Int32Array(size).fill(-1); // slot -> the first member of its key
  const lastOf = new Int32Array(m);
  const first = new Uint8Array(m);
  let distinct = 0;
  for (let k = 0; k < m; k++) {
    const from = keyStarts[k]! + 1;
    const to = keyEnds[k]! - 1;
    const own = decoded?.get(k);
    let slot = (own === undefined ? hashOf(text, from, to) : hashOf(own, 0, own.length)) & (size - 1);
    for (;;) {
      const at = table[slot]!;
      if (at === -1) {
        table[slot] = k;
        lastOf[k] = k;
        first[k] = 1;
        distinct++;
        break;
      }
      if (
        decoded === undefined
          ? sameText(text, keyStarts[at]! + 1, keyEnds[at]! - 1, from, to)
          : keyText(at) === keyText(k)
      ) {
        lastOf[at] = k;
        break;
      }
      slot = (slot + 1) & (size - 1);
    }
  }
  return { lastOf, first, distinct };
}

/** The first members whose key is an array index, as [index, member]. */
function arrayIndexKeys(
  text: string,
  keyStarts: number[],
  keyEnds: number[],
  decoded: Map<number, string> | undefined,
  first: Uint8Array,
): Array<[number, number]> {
  const indexed: Array<[number, number]> = [];
  for (let k = 0; k < keyStarts.length; k++) {
    if (!first[k]) continue;
    const from = keyStarts[k]! + 1;
    const maybe = decoded?.has(k) || (keyEnds[k]! - 1 - from <= 10 && isDigit(text.charCodeAt(from)));
    if (!maybe) continue;
    const index = arrayIndex(decoded?.get(k) ?? text.slice(from, keyEnds[k]! - 1));
    if (index !== -1) indexed.push([index, k]);
  }
  return indexed;
}

/** The first members in order into the output arrays (no escaped key, no array index): how many. */
function placeInOrder(
  first: Uint8Array,
  keyStarts: number[],
  keyEnds: number[],
  valueStarts: number[],
  valueEnds: number[],
  lastOf: Int32Array,
  keysAt: Int32Array,
  keysEnd: Int32Array,
  valuesAt: Int32Array,
  valuesEnd: Int32Array,
): number {
  let out = 0;
  for (let k = 0; k < keyStarts.length; k++) {
    if (!first[k]) continue;
    keysAt[out] = keyStarts[k]!;
    keysEnd[out] = keyEnds[k]!;
    valuesAt[out] = valueStarts[lastOf[k]!]!;
    valuesEnd[out++] = valueEnds[lastOf[k]!]!;
  }
  return out;
}

function sameText(text: string, a: number, aEnd: number, b: number, bEnd: number): boolean {
  const length = aEnd - a;
  if (length !== bEnd - b) return false;
  for (let k = 0; k < length; k++) if (text.charCodeAt(a + k) !== text.charCodeAt(b + k)) return false;
  return true;
}

/**
 * A syntax error at `error`: the text with every container (and run of simple array items) complete
 * ERROR_MARGIN characters before it replaced, so JSON.parse reaches the same error (same position,
 * same quoted context) without building them. The scan logged those ranges as it went.
 */
function reparse(text: string, error: number, skippable: SkippableRanges): Scanned {
  const limit = error - ERROR_MARGIN;
  const { starts, ends } = skippable.maximal(limit, false);
  return { kind: 'reparse', text: replaced(text, starts, ends, limit) };
}

/**
 * The text with each [starts[k], ends[k]) ending by `limit` replaced by `0` and spaces (line
 * breaks kept). Neighbours in one array (only a comma between them) become one stand-in: JSON.parse
 * then builds one `0` where a million `{}` stood (no answer reads how many items an array had).
 */
function replaced(text: string, starts: Int32Array, ends: Int32Array, limit: number): string {
  // Merged in place: the merged list never outgrows the ranges read.
  let count = 0;
  for (let k = 0; k < starts.length; k++) {
    let end = ends[k]!;
    if (end > limit) continue;
    const start = starts[k]!;
    while (k + 1 < starts.length && ends[k + 1]! <= limit && onlyComma(text, end, starts[k + 1]!)) end = ends[++k]!;
    starts[count] = start;
    ends[count++] = end;
  }
  if (count === 0) return text;
  const few = count <= FEW_STAND_INS;
  return (few ? bySlices : byUnits)(text, starts.subarray(0, count), ends.subarray(0, count));
}

/** Up to this many stand-ins, the text is rebuilt from slices (one-byte text stays one-byte). */
const FEW_STAND_INS = 256;

function bySlices(text: string, starts: Int32Array, ends: Int32Array): string {
  const pieces: string[] = [];
  let from = 0;
  for (let k = 0; k < starts.length; k++) {
    const start = starts[k]!;
    const end = ends[k]!;
    pieces.push(text.slice(from, start), '0');
    const inside = text.slice(start + 1, end);
    pieces.push(/[\n\r]/.test(inside) ? inside.replace(/[^\n\r]/g, ' ') : ' '.repeat(end - start - 1));
    from = end;
  }
  pieces.push(text.slice(from));
  return pieces.join('');
}

/**
 * The same in a buffer of UTF-16 units: many stand-ins (a million `[1]` before an error) cost one
 * typed-array write each, where slicing and joining cost three strings each.
 */
function byUnits(text: string, starts: Int32Array, ends: Int32Array): string {
  const n = text.length;
  const units = new Uint16Array(n);
  for (let i = 0; i < n; i++) units[i] = text.charCodeAt(i);
  const lineBreak = /[\n\r]/g;
  let nextBreak = -1; // the first line break at or after the last range's start, or n
  for (let k = 0; k < starts.length; k++) {
    const start = starts[k]!;
    const end = ends[k]!;
    if (nextBreak < start) {
      lineBreak.lastIndex = start;
      nextBreak = lineBreak.exec(text)?.index ?? n;
    }
    units[start] = 48; // 0
    if (nextBreak >= end) {
      if (end - start === 2) units[start + 1] = 32;
      else units.fill(32, start + 1, end);
    } else {
      for (let i = start + 1; i < end; i++) if (units[i] !== 10 && units[i] !== 13) units[i] = 32;
    }
  }
  return Buffer.from(units.buffer, units.byteOffset, units.byteLength).toString('utf16le');
}

/** Is text[from, to) one comma between whitespace? */
function onlyComma(text: string, from: number, to: number): boolean {
  let commas = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === C.Comma) commas++;
    else if (!isWs(c)) return false;
  }
  return commas === 1;
}

/** Skips the (valid) container at i: brackets counted, strings skipped. */
function skipContainer(text: string, i: number): number {
  let depth = 0;
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === C.Quote) {
      i = skipString(text, i);
      continue;
    }
    if (c === C.OpenBracket || c === C.OpenBrace) depth++;
    else if (c === C.CloseBracket || c === C.CloseBrace) {
      depth--;
      if (depth === 0) return i + 1;
    }
    i++;
  }
}

/** Where the value build() last read ends (a result object per item cost 150 ms for 1,400,000 items). */
let builtEnd = 0;

/**
 * The (valid) value at i; where it ends is left in builtEnd. `level` 0 is the body, 1 a field's
 * value, 2 its items or inner fields: containers at level 2 or deeper are the frozen stand-ins.
 */
function build(text: string, i: number, level: number): unknown {
  const c = text.charCodeAt(i);
  if (c === C.Quote) {
    builtEnd = skipString(text, i);
    // A new string, as JSON.parse makes: a slice would keep the whole body alive in the store.
    return JSON.parse(text.slice(i, builtEnd)) as string;
  }
  if (c === C.Minus || isDigit(c)) {
    builtEnd = skipNumber(text, i);
    return Number(text.slice(i, builtEnd));
  }
  if (c === 116 /* t */) {
    builtEnd = i + 4;
    return true;
  }
  if (c === 102 /* f */) {
    builtEnd = i + 5;
    return false;
  }
  if (c === 110 /* n */) {
    builtEnd = i + 4;
    return null;
  }
  if (level >= 2) {
    builtEnd = skipContainer(text, i);
    return c === C.OpenBracket ? DEEP_ARRAY : DEEP_OBJECT;
  }
  if (c === C.OpenBracket) {
    const out: unknown[] = [];
    i = skipWs(text, i + 1);
    if (text.charCodeAt(i) !== C.CloseBracket) {
      const deep = level + 1 >= 2;
      for (;;) {
        const d = text.charCodeAt(i);
        if (deep && d === C.OpenBrace && text.charCodeAt(i + 1) === C.CloseBrace) {
          // An empty object where a scalar belongs (1,400,000 of them fill 4 MiB): its stand-in.
          out.push(DEEP_OBJECT);
          builtEnd = i + 2;
        } else {
          out.push(build(text, i, level + 1));
        }
        i = skipWs(text, builtEnd);
        if (text.charCodeAt(i) === C.CloseBracket) break;
        i = skipWs(text, i + 1); // the comma
      }
    }
    builtEnd = i + 1;
    return out;
  }
  // An object: assigned in order, so V8 orders and de-duplicates its keys as JSON.parse does.
  const out: Record<string, unknown> = {};
  i = skipWs(text, i + 1);
  if (text.charCodeAt(i) !== C.CloseBrace) {
    for (;;) {
      const keyEnd = skipString(text, i);
      const name = keyAt(text, i, keyEnd);
      i = skipWs(text, skipWs(text, keyEnd) + 1); // past the colon
      out[name] = build(text, i, level + 1);
      i = skipWs(text, builtEnd);
      if (text.charCodeAt(i) === C.CloseBrace) break;
      i = skipWs(text, i + 1);
    }
  }
  builtEnd = i + 1;
  return out;
}
