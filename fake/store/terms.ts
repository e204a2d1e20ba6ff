/**
 * Terms of a text: maximal runs of letters and digits (Unicode `\p{L}` and `\p{N}`) of the
 * lower-cased text, at most MAX_TERM_LENGTH UTF-16 units long (longer runs are dropped, not cut).
 * Lower-casing is String.prototype.toLowerCase's, so "İ" gives "i" and a combining dot (which ends
 * the term) and "Σ" gives "ς" at the end of a word and "σ" elsewhere.
 */
export const MAX_TERM_LENGTH = 64;

const TERM = /[\p{L}\p{N}]+/gu;

/** The terms of the text, in order (repeats included). */
export function tokenize(text: string): string[] {
  return (text.toLowerCase().match(TERM) ?? []).filter((t) => t.length <= MAX_TERM_LENGTH);
}

/** How often each term occurs in the text, in first-occurrence order. */
export function termCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const term of tokenize(text)) counts.set(term, (counts.get(term) ?? 0) + 1);
  return counts;
}

const WORD_CHAR = /^[\p{L}\p{N}]$/u;
/** Per BMP code unit: 0 not yet known, 1 a letter or digit, 2 neither (filled as characters are met). */
const bmpClass = new Uint8Array(65_536);

function isWordUnit(c: number): boolean {
  let k = bmpClass[c]!;
  if (k === 0) {
    k = WORD_CHAR.test(String.fromCharCode(c)) ? 1 : 2;
    bmpClass[c] = k;
  }
  return k === 1;
}

/**
 * Calls `visit(start, end)` for each term of an already lower-cased text, the spans of tokenize's
 * terms, found by a scan of character codes that makes no string: a query may be a 2 MiB body,
 * and a string per occurrence (what `match` makes) cost 40 to 100 ms for one (bench/worst-cases.js).
 */
export function forEachTermSpan(lower: string, visit: (start: number, end: number) => void): void {
  const n = lower.length;
  let start = -1;
  let i = 0;
  while (i < n) {
    const c = lower.charCodeAt(i);
    let width = 1;
    let word: boolean;
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
      const low = lower.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        width = 2;
        word = WORD_CHAR.test(lower.slice(i, i + 2));
      } else word = false;
    } else word = isWordUnit(c);
    if (word) {
      if (start === -1) start = i;
    } else if (start !== -1) {
      if (i - start <= MAX_TERM_LENGTH) visit(start, i);
      start = -1;
    }
    i += width;
  }
  if (start !== -1 && n - start <= MAX_TERM_LENGTH) visit(start, n);
}

/**
 * FNV-1a over the UTF-16 units of text[start, end), the same for a term and for its span, kept to
 * 30 bits so that it stays a small integer in V8 (a Map key that is no allocation).
 */
export function hashUnits(text: string, start = 0, end = text.length): number {
  let h = 0x811c9dc5 | 0;
  for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h & 0x3fffffff;
}
