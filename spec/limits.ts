/**
 * The input limits the API document states (section 4's tables and part 8), as data: the run's
 * oracle judges every request by them (a value past one must be refused, a value exactly at one
 * accepted), and the model-based runs send values at and just past them. Where openapi.yaml can
 * express a limit it states the same number (test/spec/limits.test.ts holds them equal); the
 * byte limits are the document's words only ("1,000 characters and bytes").
 */
export interface SizeLimit {
  /** Most characters (Unicode code points). */
  readonly chars: number;
  /** Most UTF-8 bytes, where the document states a byte limit. */
  readonly bytes?: number;
}

export interface RangeLimit {
  readonly min: number;
  /** Unbounded above when absent (the search offset). */
  readonly max?: number;
  /** What the target uses when the request leaves it out. */
  readonly default?: number;
}

export const LIMITS = {
  /** Note content on create: "max 200,000 characters and 200,000 UTF-8 bytes". */
  noteContentCreate: { chars: 200_000, bytes: 200_000 },
  /** Note content on update: "max 200,000" (no byte limit is stated for update). */
  noteContentUpdate: { chars: 200_000 },
  /** A collection_titles entry of a note create: "each max 1,000 characters and bytes". */
  collectionTitlesEntry: { chars: 1_000, bytes: 1_000 },
  /** A collection's title, on create and update. */
  collectionTitle: { chars: 1_000, bytes: 1_000 },
  /** A collection's description, on create and update. */
  collectionDescription: { chars: 10_000, bytes: 10_000 },
  /** "Attachment question | 1..10,000 characters". */
  attachmentQuestion: { chars: 10_000 },
  notesListLimit: { min: 1, max: 100, default: 50 },
  collectionsListLimit: { min: 1, max: 100, default: 50 },
  searchLimit: { min: 1, max: 50, default: 20 },
  searchOffset: { min: 0, default: 0 },
  relatedLimit: { min: 1, max: 20, default: 10 },
  /** "Search window | 100 results; total capped there". */
  searchWindow: 100,
} as const satisfies Record<string, SizeLimit | RangeLimit | number>;

/** Any UTF-16 surrogate: a string without one has as many code points as units. */
const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * Characters as the document counts them: code points, so an emoji is one (a lone surrogate counts
 * one, as a for-of walk counts it). The oracle counts every text a run sends, 200,000-character
 * contents among them; a for-of walk made a string a character (1.4 ms for 200,000 of them).
 */
export function charCount(s: string): number {
  if (!SURROGATE.test(s)) return s.length;
  let n = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    const unit = s.charCodeAt(i);
    if (unit < 0xd800 || unit > 0xdbff) continue;
    const next = s.charCodeAt(i + 1);
    if (next >= 0xdc00 && next <= 0xdfff) {
      n--;
      i++;
    }
  }
  return n;
}

export function byteCount(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

/** Which bound of a size limit a string passes, if any: past the characters, or within them but past the bytes. */
export function pastSize(s: string, limit: SizeLimit): 'chars' | 'bytes' | undefined {
  if (charCount(s) > limit.chars) return 'chars';
  return limit.bytes !== undefined && byteCount(s) > limit.bytes ? 'bytes' : undefined;
}

/**
 * The bounds of a size limit a string stands on or just within (at most `near` under it, and within
 * the others): where an off-by-a-few limit shows. An ASCII string may stand on both.
 */
export function atSize(s: string, limit: SizeLimit, near = 0): Array<'chars' | 'bytes'> {
  if (pastSize(s, limit)) return [];
  const out: Array<'chars' | 'bytes'> = [];
  if (charCount(s) >= limit.chars - near) out.push('chars');
  if (limit.bytes !== undefined && byteCount(s) >= limit.bytes - near) out.push('bytes');
  return out;
}
