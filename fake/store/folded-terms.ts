import { isWordUnit, MAX_TERM_LENGTH, WORD_CHAR } from './terms.js';

/**
 * The terms of `text.toLowerCase()` (terms.ts), found by folding the text one character at a time
 * instead of lowering it whole: String.prototype.toLowerCase goes through ICU for any text that
 * is not Latin-1 (25 ns a character: 55 ms for a 4 MiB query of "İ") and makes a second 4 MiB
 * string. Each character lowers on its own, as toLowerCase lowers it, with two exceptions the
 * folding reproduces: "İ" (U+0130) lowers to two units, "i" and a combining dot above, and "Σ"
 * lowers to final "ς" or to "σ" by its context (Unicode's Final_Sigma condition as ICU applies it,
 * see isFinalSigma). test/fake/folded-terms.test.ts compares the folding with toLowerCase for
 * every character, in every context that matters.
 */

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;
const CAPITAL_I_DOT = 0x130;
const CAPITAL_SIGMA = 0x3a3;
const SMALL_SIGMA = 0x3c3;
const FINAL_SIGMA = 0x3c2;

/** Per non-ASCII BMP unit, its lower-case unit (0: not yet known). */
const lowerBmp = new Uint16Array(65_536);

function lowerUnit(c: number): number {
  let lower = lowerBmp[c]!;
  if (lower === 0 && c !== 0) {
    lower = String.fromCharCode(c).toLowerCase().charCodeAt(0);
    lowerBmp[c] = lower;
  }
  return lower;
}

/** Lower-case code point of an astral code point, and whether it is a letter or digit (by cache). */
const astral = new Map<number, { lower: number; word: boolean }>();

function foldAstral(cp: number): { lower: number; word: boolean } {
  let folded = astral.get(cp);
  if (!folded) {
    const lower = String.fromCodePoint(cp).toLowerCase();
    folded = { lower: lower.codePointAt(0)!, word: WORD_CHAR.test(lower) };
    astral.set(cp, folded);
  }
  return folded;
}

const CASED = /^\p{Cased}$/u;
const CASE_IGNORABLE = /^\p{Case_Ignorable}$/u;
/** Per BMP unit: 0 not yet known, else 1 + (cased ? 2 : 0) + (case-ignorable ? 4 : 0). */
const caseKind = new Uint8Array(65_536);
const astralCaseKind = new Map<number, number>();
const KIND_CASED = 2;
const KIND_IGNORABLE = 4;

/** caseKindOf for a BMP unit, the table read inline. */
const caseKindOfUnit = (unit: number) => caseKind[unit] || caseKindOf(unit);

function caseKindOf(cp: number): number {
  let kind = cp < 65_536 ? caseKind[cp]! : (astralCaseKind.get(cp) ?? 0);
  if (kind === 0) {
    const ch = String.fromCodePoint(cp);
    kind = 1 | (CASED.test(ch) ? KIND_CASED : 0) | (CASE_IGNORABLE.test(ch) ? KIND_IGNORABLE : 0);
    if (cp < 65_536) caseKind[cp] = kind;
    else astralCaseKind.set(cp, kind);
  }
  return kind;
}

/**
 * Whether the capital sigma at `at` lowers to final sigma: a cased letter comes before it and none
 * after it, case-ignorable characters skipped both ways. As ICU decides (V8's toLowerCase is
 * ICU's), a character that is both cased and case-ignorable counts as ignorable ("ʰΣ" lowers to
 * "ʰσ"). Each look stops at the first character that is not ignorable (another sigma at the
 * latest), so over a whole text every character is read a bounded number of times.
 */
function isFinalSigma(text: string, at: number): boolean {
  let kind = 0;
  for (let i = at; i > 0; ) {
    const unit = text.charCodeAt(i - 1);
    const high = i > 1 && isLowSurrogate(unit) ? text.charCodeAt(i - 2) : 0;
    const astral = high >= 0xd800 && high <= 0xdbff;
    kind = astral ? caseKindOf((high - 0xd800) * 0x400 + (unit - 0xdc00) + 0x10000) : caseKindOfUnit(unit);
    if ((kind & KIND_IGNORABLE) === 0) break;
    i -= astral ? 2 : 1;
  }
  if ((kind & KIND_IGNORABLE) !== 0 || (kind & KIND_CASED) === 0) return false;
  for (let i = at + 1; i < text.length; ) {
    const unit = text.charCodeAt(i);
    const low = unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
    const astral = isLowSurrogate(low);
    kind = astral ? caseKindOf((unit - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000) : caseKindOfUnit(unit);
    if ((kind & KIND_IGNORABLE) === 0) return (kind & KIND_CASED) === 0;
    i += astral ? 2 : 1;
  }
  return true;
}

/** The capital sigma at `at` lowered; a cased letter right after it (ΣΣ) settles it without a look around. */
function lowerSigma(text: string, at: number): number {
  const next = at + 1 < text.length ? caseKind[text.charCodeAt(at + 1)]! : 0;
  if ((next & (KIND_CASED | KIND_IGNORABLE)) === KIND_CASED) return SMALL_SIGMA;
  return isFinalSigma(text, at) ? FINAL_SIGMA : SMALL_SIGMA;
}

/** Per ASCII unit, its lower-case form when it is a letter or digit, else 0. */
const ASCII_TERM_UNIT = Uint16Array.from({ length: 128 }, (_, c) =>
  c >= 65 && c <= 90 ? c + 32 : (c >= 97 && c <= 122) || (c >= 48 && c <= 57) ? c : 0,
);

/** Receives the terms of forEachFoldedTerm: a method of one class, so its call site stays monomorphic. */
export interface TermSink {
  term(units: Uint16Array, length: number, hash: number): void;
}

/**
 * Calls `sink.term(units, length, hash)` for each term of text.toLowerCase(), in order: `units[0,
 * length)` are the term's lower-cased UTF-16 units (the array is reused: copy what you keep) and
 * `hash` is hashUnits of them. Terms longer than MAX_TERM_LENGTH units are skipped, as terms.ts does.
 * ASCII takes the first branch of the loop and nothing else: a 4 MiB query is mostly that.
 */
export function forEachFoldedTerm(text: string, sink: TermSink): void {
  const units = new Uint16Array(MAX_TERM_LENGTH + 2);
  const n = text.length;
  // The term being read: its length in units (past MAX_TERM_LENGTH only counted) and hash.
  let length = 0;
  let hash = FNV_OFFSET;
  let i = 0;
  scan: while (i < n) {
    let c = text.charCodeAt(i);
    // A run of ASCII: one table lookup a unit (most of a 4 MiB query).
    while (c < 128) {
      const unit = ASCII_TERM_UNIT[c]!;
      if (unit !== 0) {
        if (length < units.length) units[length] = unit;
        length++;
        hash = Math.imul(hash ^ unit, FNV_PRIME);
      } else if (length !== 0) {
        if (length <= MAX_TERM_LENGTH) sink.term(units, length, hash);
        length = 0;
        hash = FNV_OFFSET;
      }
      if (++i === n) break scan;
      c = text.charCodeAt(i);
    }
    // The lower-cased unit(s) of the character at i, 0 when it is no letter or digit.
    let first = 0;
    let second = 0;
    let ends = false;
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < n && isLowSurrogate(text.charCodeAt(i + 1))) {
      const folded = foldAstral((c - 0xd800) * 0x400 + (text.charCodeAt(i + 1) - 0xdc00) + 0x10000);
      if (folded.word) {
        first = 0xd800 + ((folded.lower - 0x10000) >> 10);
        second = 0xdc00 + ((folded.lower - 0x10000) & 0x3ff);
      }
      i += 2;
    } else {
      // "İ" lowers to "i" and U+0307, which is no letter or digit: the term ends after the "i".
      ends = c === CAPITAL_I_DOT;
      const lower = ends ? 0x69 : c === CAPITAL_SIGMA ? lowerSigma(text, i) : lowerUnit(c);
      if (isWordUnit(lower)) first = lower;
      i++;
    }
    if (first !== 0) {
      if (length < units.length) units[length] = first;
      length++;
      hash = Math.imul(hash ^ first, FNV_PRIME);
      if (second !== 0) {
        if (length < units.length) units[length] = second;
        length++;
        hash = Math.imul(hash ^ second, FNV_PRIME);
      }
      if (!ends) continue;
    }
    if (length !== 0) {
      if (length <= MAX_TERM_LENGTH) sink.term(units, length, hash);
      length = 0;
      hash = FNV_OFFSET;
    }
  }
  if (length !== 0 && length <= MAX_TERM_LENGTH) sink.term(units, length, hash);
}

const isLowSurrogate = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff;
