/**
 * A value of a scanned body (json-scan.ts) built two levels deep: a field's value, and its items or
 * inner fields. No route reads deeper (every body field is a scalar, an array of scalars or an
 * object of scalars), so a deeper container is a shared, frozen, empty one of its kind.
 */

import { C, isDigit, keyAt, skipNumber, skipString, skipWs } from './json-tokens.js';

/** What stands for a container nested too deep to be read. */
const DEEP_ARRAY: readonly unknown[] = Object.freeze([]);
const DEEP_OBJECT: Readonly<Record<string, unknown>> = Object.freeze({});

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
export function build(text: string, i: number, level: number): unknown {
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
