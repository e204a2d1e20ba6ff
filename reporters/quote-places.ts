/**
 * Where each rule's quote stands in the API document. Quotes are the document's words with the
 * whitespace normalised (rules.yaml keeps them on one line; the document wraps and aligns tables),
 * so matching runs on a whitespace-collapsed copy of the document that maps back to raw offsets.
 */

export interface QuotedRule {
  id: string;
  section: string;
  quote: readonly string[];
}

/** A quote found in the document: raw character offsets [start, end). */
export interface Placement {
  ruleId: string;
  quote: string;
  start: number;
  end: number;
}

export interface QuotePlaces {
  placements: Placement[];
  /** "rule.id: quote" for each quote not found in the document. */
  missing: string[];
}

export function placeQuotes(rules: readonly QuotedRule[], documentText: string): QuotePlaces {
  const flat = flatten(documentText);
  const placements: Placement[] = [];
  const missing: string[] = [];
  for (const rule of rules) {
    for (const quote of rule.quote) {
      const needle = quote.replace(/\s+/g, ' ').trim();
      const at = findPreferred(flat.text, needle, sectionRange(documentText, rule.section, flat));
      if (at < 0 || needle.length === 0) {
        missing.push(`${rule.id}: ${quote}`);
        continue;
      }
      placements.push({ ruleId: rule.id, quote, start: flat.raw[at]!, end: flat.raw[at + needle.length - 1]! + 1 });
    }
  }
  return { placements, missing };
}

interface Flat {
  /** The document with each whitespace run as one blank. */
  text: string;
  /** For each character of `text`, its offset in the raw document. */
  raw: number[];
  /** For each raw offset, the flat offset of the character at or after it. */
  flatOf: (rawOffset: number) => number;
}

function flatten(documentText: string): Flat {
  let text = '';
  const raw: number[] = [];
  for (let i = 0; i < documentText.length; i++) {
    const c = documentText[i]!;
    if (/\s/.test(c)) {
      if (text.endsWith(' ')) continue;
      text += ' ';
    } else text += c;
    raw.push(i);
  }
  const flatOf = (rawOffset: number) => {
    let lo = 0;
    let hi = raw.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (raw[mid]! < rawOffset) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return { text, raw, flatOf };
}

/** The flat range of the rule's part ("4. Endpoints") and, if the section names one, the anchor inside it. */
function sectionRange(documentText: string, section: string, flat: Flat): { from: number; to: number; anchor: number } {
  const whole = { from: 0, to: flat.text.length, anchor: 0 };
  const part = /^(\d+)\./.exec(section)?.[1];
  if (!part) return whole;
  const heading = new RegExp(`^## ${part}\\. `, 'm').exec(documentText);
  if (!heading) return whole;
  const next = /^## /m.exec(documentText.slice(heading.index + 3));
  const rawTo = next ? heading.index + 3 + next.index : documentText.length;
  let anchor = heading.index;
  // "4. Endpoints / Notes / POST /v2/notes": the innermost name, as a ### heading or a **bold** label.
  for (const name of section.split(' / ').slice(1)) {
    const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const found = new RegExp(`^### ${escaped}(?=[ (]|$)|\\*\\*${escaped}\\*\\*`, 'm').exec(
      documentText.slice(anchor, rawTo),
    );
    if (found) anchor += found.index;
  }
  return { from: flat.flatOf(heading.index), to: flat.flatOf(rawTo), anchor: flat.flatOf(anchor) };
}

/** First occurrence after the section's anchor, else in its part, else anywhere. */
function findPreferred(text: string, needle: string, range: { from: number; to: number; anchor: number }): number {
  const within = (from: number) => {
    const at = text.indexOf(needle, from);
    return at >= 0 && at + needle.length <= range.to ? at : -1;
  };
  const afterAnchor = within(range.anchor);
  if (afterAnchor >= 0) return afterAnchor;
  const inPart = within(range.from);
  return inPart >= 0 ? inPart : text.indexOf(needle);
}
