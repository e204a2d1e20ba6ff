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

import { build } from './json-build.js';
import { objectOf, type ScannedObject } from './json-members.js';
import { RootMembers } from './json-root-members.js';
import { SkippableRanges } from './json-skippable.js';
import { ERROR_MARGIN, reparse, replaced } from './json-stand-ins.js';
import {
  ARRAY_RUN,
  C,
  isDigit,
  isWs,
  lastItemEnd,
  MEMBER_RUN,
  mayBeForbidden,
  quotedEnd,
  skipNumber,
  skipRuns,
  skipString,
  skipWs,
} from './json-tokens.js';

export { ScannedObject } from './json-members.js';
export { FORBIDDEN_KEYS } from './json-tokens.js';

export type Scanned =
  | { readonly kind: 'object'; readonly object: ScannedObject }
  | { readonly kind: 'value'; readonly value: unknown }
  /** JSON.parse of `text` gives today's error (syntax) or a value whose refused key is today's. */
  | { readonly kind: 'reparse'; readonly text: string };

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
  return error === undefined ? scan.result() : { kind: 'reparse', text: reparse(text, error, scan.skippable) };
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

/** Root member strings this long are found by their quotes and built at once (rootString). */
const LONG_STRING = 4096;

/**
 * The stack of open containers, shared by every scan (one runs at a time; nothing keeps it after):
 * typed arrays of their own for each small body cost more than reading it (200,000 small bodies:
 * 0.6 s before the scan had them, 2.2 s after).
 */
const KEPT_STACK = 1 << 16;
const stack = { kinds: new Uint8Array(256), starts: new Int32Array(256) };
/** Scratch for closedRun: (depth, end) pairs, outermost first. */
const LOGGED = new Int32Array(2 * (ERROR_MARGIN + 2));

/**
 * The stack's kinds hold, above the kind (1 array, 2 object) and the refused-key bit (4), how many
 * more commas of the container skip the try of a run (ARRAY_RUN, MEMBER_RUN) after one that failed.
 */
const SKIPPED_TRY = 8;
const SKIPPED_TRIES = 15;

class Scan {
  private readonly n: number;
  /**
   * The open containers: kind (+4 when it holds a refused key), and where each opened. Grown as the
   * nesting deepens: a malformed body may open one container a character.
   */
  private kinds = stack.kinds;
  private starts = stack.starts;
  forbidden = false;
  /** Set when member() read the value of the member too (rootScalars): it answered where it ends. */
  private valueRead = false;
  /**
   * Complete containers and runs of simple array items: what JSON.parse may skip after a syntax
   * error (those ending ERROR_MARGIN characters before it, see reparse) or when handed a refused
   * key (those holding none).
   */
  readonly skippable: SkippableRanges;
  /** The members of a root object: where each key and each value start. */
  private readonly rootObject: boolean;
  private readonly members = new RootMembers();

  constructor(
    private readonly text: string,
    logLimit: number,
  ) {
    this.skippable = new SkippableRanges(logLimit);
    this.n = text.length;
    this.rootObject = text.charCodeAt(skipWs(text, 0)) === C.OpenBrace;
    this.members.textLength = this.n;
  }

  /**
   * Reads `"key" :` at `at` in the object open at `depth`: where its value starts, or -1-error. A
   * root object's members with scalar values are read on in one loop (rootScalars).
   */
  private member(at: number, depth: number): number {
    if (depth === 1 && this.rootObject) {
      const j = this.rootKey(at);
      return j < 0 ? j : this.rootScalars(j);
    }
    const text = this.text;
    // Members of inner objects with simple values are skipped in runs (a root object's are recorded);
    // not tried for the next SKIPPED_TRIES members after a try that skipped none (as arrays, below).
    const kind = this.kinds[depth - 1]!;
    if (kind >= SKIPPED_TRY) this.kinds[depth - 1] = kind - SKIPPED_TRY;
    else {
      const from = at;
      at = skipRuns(MEMBER_RUN, text, at);
      if (at === from) this.kinds[depth - 1] = kind | (SKIPPED_TRY * SKIPPED_TRIES);
    }
    if (text.charCodeAt(at) !== C.Quote) return -1 - at;
    const end = skipString(text, at);
    if (end < 0) return end;
    if (mayBeForbidden(text, at, end)) {
      this.forbidden = true;
      this.kinds[depth - 1]! |= 4;
    }
    return this.colon(end);
  }

  /** Past `:` and the whitespace around it from `at`, or -1-error. */
  private colon(at: number): number {
    const text = this.text;
    const j = skipWs(text, at);
    if (text.charCodeAt(j) !== C.Colon) return -1 - j;
    return skipWs(text, j + 1);
  }

  /** member() of the root object: its key recorded (members). */
  private rootKey(at: number): number {
    const text = this.text;
    if (text.charCodeAt(at) !== C.Quote) return -1 - at;
    const end = this.members.readKey(text, at);
    if (end < 0) return end;
    if (mayBeForbidden(text, at, end)) {
      this.forbidden = true;
      this.kinds[0]! |= 4;
    }
    return this.colon(end);
  }

  /**
   * From the value of a root member at `at`: the members after it, read here while their values are
   * scalars followed by a comma (the scan's loop, a turn per value and per comma, cost a body of
   * 466,000 unknown fields about 40 ms more). Answers where the first value left to the scan
   * starts (a container, the last member's value, or a broken one), or -1-error.
   */
  private rootScalars(at: number): number {
    const text = this.text;
    for (;;) {
      const c = text.charCodeAt(at);
      const end = c === C.Quote ? this.rootString(at) : scalarEnd(text, at, c);
      if (end < 0) return at;
      let j = end;
      if (text.charCodeAt(j) !== C.Comma) {
        j = skipWs(text, j);
        if (text.charCodeAt(j) !== C.Comma) {
          // The last member (or a broken text): the scan goes on after its value, not reading it again.
          this.valueRead = true;
          return end;
        }
      }
      const next = this.rootKey(skipWs(text, j + 1));
      if (next < 0) return next;
      at = next;
    }
  }

  /**
   * The end of the root member's string value at `at`, or -1 when it is broken (the scan then
   * reads it again, to find where). A long one is found by looking for quotes (native code) and
   * checked by JSON.parse, which builds it for the route (members.strings): the regex that reads a
   * string a character at a time cost a 4 MiB query about 18 ms, JSON.parse of it 7.
   */
  private rootString(at: number): number {
    const text = this.text;
    const end = quotedEnd(text, at);
    if (end < 0) return -1;
    if (end - at < LONG_STRING) return Math.max(-1, skipString(text, at));
    let value: unknown;
    try {
      value = JSON.parse(text.slice(at, end));
    } catch {
      return -1;
    }
    this.members.keepString(value as string);
    return end;
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
    // A refused key marks every container around it (here, not at each close: 2,000,000 of them).
    if (this.forbidden) for (let d = runDepth - 1; d > 0 && d >= depth; d--) if (kinds[d]! & 4) kinds[d - 1]! |= 4;
    if (runDepth === depth + 1) {
      this.skippable.add(starts[depth]!, end, (kinds[depth]! & 4) !== 0);
      return;
    }
    const logged = LOGGED;
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

  /**
   * Past the runs of array items that need no stack from `at`. Each run's items (no refused key in
   * them) are logged as one range (its last comma left out): a range per run, not one for all of
   * them, so that an error right after a million items finds all but the last run's in the log.
   */
  private arrayRuns(at: number): number {
    const text = this.text;
    ARRAY_RUN.lastIndex = at;
    while (ARRAY_RUN.test(text)) {
      const end = ARRAY_RUN.lastIndex;
      this.skippable.add(at, lastItemEnd(text, end), false);
      at = end;
      ARRAY_RUN.lastIndex = end;
    }
    return at;
  }

  /**
   * A deeper stack: four times, and past 65,536 at once to half the text's length (a valid text
   * nests no deeper; growing by steps to 2,000,000 cost a body nested that deep 5 to 10 ms of
   * copies), then to the whole (a malformed one can).
   */
  private deeper(): void {
    const half = (this.n >> 1) + 2;
    const length =
      this.kinds.length >= half
        ? this.n + 2
        : this.kinds.length >= 1 << 16
          ? half
          : Math.min(this.kinds.length * 4, half);
    const kinds = new Uint8Array(length);
    const starts = new Int32Array(length);
    kinds.set(this.kinds);
    starts.set(this.starts);
    this.kinds = kinds;
    this.starts = starts;
    // Kept for the next body unless it is large (a body nested 2,000,000 deep takes 10 MB).
    if (length <= KEPT_STACK) {
      stack.kinds = kinds;
      stack.starts = starts;
    }
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
      // A value at i, or one member() read, that ended at i.
      let c = 0;
      if (this.valueRead) this.valueRead = false;
      else if (i >= n) return i;
      else if ((c = text.charCodeAt(i)) === C.OpenBracket) {
        // A run of brackets opening nested arrays (a hostile body nests 2,000,000 deep): opened by
        // openArrays over the stack as it is (arrays fixed for the loop: a loop that could swap
        // them cost a body nested 2,000,000 deep 10 to 15% more), again over a deeper one if full.
        for (;;) {
          const opened = openArrays(text, i, depth, kinds, starts);
          i += opened;
          depth += opened;
          c = text.charCodeAt(i);
          if (c !== C.OpenBracket) break;
          this.deeper();
          ({ kinds, starts } = this);
        }
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
      const kindsNow = kinds;
      const runDepth = depth;
      let runEnd = i;
      for (;;) {
        if (depth === 0) {
          this.closedRun(runDepth, depth, runEnd);
          i = skipWs(text, i);
          return i < n ? i : undefined;
        }
        const kind = kindsNow[depth - 1]! & 3;
        const close = kind === 1 ? C.CloseBracket : C.CloseBrace;
        if (emptyClose) {
          emptyClose = false;
        } else {
          // The value just ended at i.
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
            } else if (kindsNow[depth - 1]! >= SKIPPED_TRY) {
              kindsNow[depth - 1]! -= SKIPPED_TRY;
            } else {
              // Array items that need no stack, skipped in runs; the one that ends the run is read
              // as any value. Tried after a comma only (a run needs one), and after a try that
              // skipped nothing, not for the next SKIPPED_TRIES commas: a failed try cost about
              // 60 ns, as much as reading the item (a 4 MiB array of [[[1]]] would pay 30 ms).
              const from = i;
              i = this.arrayRuns(i);
              if (i === from) kindsNow[depth - 1]! |= SKIPPED_TRY * SKIPPED_TRIES;
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
    let end = text.length;
    while (isWs(text.charCodeAt(end - 1))) end--;
    this.members.end = end - 1;
    return { kind: 'object', object: objectOf(text, this.members) };
  }
}

/**
 * Opens the nested arrays whose brackets start at i, on the stack from `depth` up to its length:
 * how many.
 */
function openArrays(text: string, i: number, depth: number, kinds: Uint8Array, starts: Int32Array): number {
  const from = i;
  const room = kinds.length - depth;
  while (i - from < room && text.charCodeAt(i) === C.OpenBracket) {
    kinds[depth + i - from] = 1;
    starts[depth + i - from] = i;
    i++;
  }
  return i - from;
}

/** The end of the scalar (number, string, literal) at i, whose first unit is c, or -1 if there is none or it is broken. */
function scalarEnd(text: string, i: number, c: number): number {
  if (c === C.Quote) return Math.max(-1, skipString(text, i));
  if (c === C.Minus || isDigit(c)) return Math.max(-1, skipNumber(text, i));
  if (c === 116 /* t */) return text.startsWith('true', i) ? i + 4 : -1;
  if (c === 102 /* f */) return text.startsWith('false', i) ? i + 5 : -1;
  if (c === 110 /* n */) return text.startsWith('null', i) ? i + 4 : -1;
  return -1;
}
