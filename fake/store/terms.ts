/**
 * Terms of a text: maximal runs of letters and digits (Unicode `\p{L}` and `\p{N}`) of the
 * lower-cased text, at most MAX_TERM_LENGTH UTF-16 units long (longer runs are dropped). The same
 * terms as `text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)`, found by a scan of character codes:
 * the regex allocated a match array per term, which made a 4 MiB query cost seconds.
 */
export const MAX_TERM_LENGTH = 64;

export const WORD_CHAR = /^[\p{L}\p{N}]$/u;
/** Per BMP code unit: 0 not yet known, 1 a letter or digit, 2 neither (filled as characters are met). */
const bmpClass = new Uint8Array(65_536);
for (let c = 0; c < 128; c++)
  bmpClass[c] = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) ? 1 : 2;

export function isWordUnit(c: number): boolean {
  let k = bmpClass[c]!;
  if (k === 0) {
    k = WORD_CHAR.test(String.fromCharCode(c)) ? 1 : 2;
    bmpClass[c] = k;
  }
  return k === 1;
}

/** Calls `visit` with each term of the text, in order (repeats included). */
export function forEachTerm(text: string, visit: (term: string) => void): void {
  const lower = text.toLowerCase();
  forEachTermSpan(lower, (start, end) => visit(lower.slice(start, end)));
}

/**
 * Calls `visit(start, end)` for each term of an already lower-cased text (runs longer than
 * MAX_TERM_LENGTH are skipped): no string is made, so callers that only count or compare terms
 * pay nothing per occurrence.
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
 * FNV-1a over the UTF-16 units of text[start, end): the same for a term and for its span. A signed
 * 32-bit result, so it stays a small integer in V8 (an unsigned one above 2^31 is boxed).
 */
export function hashUnits(text: string, start = 0, end = text.length): number {
  let h = 0x811c9dc5 | 0;
  for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h;
}

export function tokenize(text: string): string[] {
  const out: string[] = [];
  forEachTerm(text, (term) => out.push(term));
  return out;
}

/** How often each term occurs in the text, in first-occurrence order. */
export function termCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  forEachTerm(text, (term) => counts.set(term, (counts.get(term) ?? 0) + 1));
  return counts;
}
