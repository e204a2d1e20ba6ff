/**
 * The text a refused body is handed back to JSON.parse as (json-scan.ts): of the same length, with
 * what cannot change JSON.parse's answer replaced by `0` and spaces, so that JSON.parse gives
 * today's error without building what the body held.
 */

import type { SkippableRanges } from './json-skippable.js';
import { C, isWs } from './json-tokens.js';

/** Characters kept untouched on either side of a syntax error (V8 quotes 10 on each side). */
export const ERROR_MARGIN = 64;

/**
 * A syntax error at `error`: the text with every container (and run of simple array items) complete
 * ERROR_MARGIN characters before it replaced, so JSON.parse reaches the same error (same position,
 * same quoted context) without building them. The scan logged those ranges as it went.
 */
export function reparse(text: string, error: number, skippable: SkippableRanges): string {
  const limit = error - ERROR_MARGIN;
  const { starts, ends } = skippable.maximal(limit, false);
  return replaced(text, starts, ends, limit);
}

/**
 * The text with each [starts[k], ends[k]) ending by `limit` replaced by `0` and spaces (line
 * breaks kept). Neighbours in one array (only a comma between them) become one stand-in: JSON.parse
 * then builds one `0` where a million `{}` stood (no answer reads how many items an array had).
 */
export function replaced(text: string, starts: Int32Array, ends: Int32Array, limit: number): string {
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
