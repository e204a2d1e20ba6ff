import { randomInt } from 'node:crypto';
import { KitError } from '../../spec/verdicts.js';
import { BOUND_KEYS, type BoundKey } from './candidates.js';
import type { ProbeNote } from './refusals.js';
import type { ProbeSession } from './session.js';

/**
 * The probe's own data, made so that each guessed name has one observable effect on it: four
 * notes of distinct content kinds in a backdated window, one of them in a collection, and three
 * backdated collections of which each time bound, sent with its pair, leaves out exactly one.
 */

export type ContentKind = 'open' | 'done' | 'image' | 'file';
export const CONTENT_KINDS: readonly ContentKind[] = ['open', 'done', 'image', 'file'];

/** The markdown each note carries: the markers of the reference fake, which common markdown shares. */
export const MARKERS: Record<ContentKind, string> = {
  open: '- [ ] an open task',
  done: '- [x] a finished task',
  image: '![diagram](https://example.com/diagram.png)',
  file: '[report](https://example.com/report.pdf)',
};

/** Offsets (ms) into the notes' window, with distinct millisecond parts: each note newer than the one before by both fields. */
const OFFSETS: Record<ContentKind, { created_at: number; updated_at: number }> = {
  open: { created_at: 123, updated_at: 1_456 },
  done: { created_at: 2_789, updated_at: 3_321 },
  image: { created_at: 4_234, updated_at: 5_567 },
  file: { created_at: 6_891, updated_at: 7_012 },
};
const NOTES_WINDOW_MS = 8_000;

export interface ProbeNotes {
  byKind: Record<ContentKind, ProbeNote>;
  /** The first line of the open-task note (a heading, for the title derivation) and its create response. */
  heading: { line: string; text: string; created: Record<string, unknown> };
  /** A word in every probe note and nowhere else. */
  word: string;
  /** The notes' window: [start, start + 8 s) by created_at and by updated_at. */
  start: number;
  end: number;
  /** Timestamps sent (ms) and what came back, for the precision. */
  sent: Array<{ field: string; ms: number; returned: unknown }>;
}

/** The collection window, in whole seconds (a whole-second store keeps them): created [10, 30], updated [20, 60]. */
const BOUNDS_S = { created_after: 10, created_before: 30, updated_after: 20, updated_before: 60 } as const;
/**
 * [created, updated] seconds into the window: `inside` within all four bounds; `early` before
 * both lower bounds, `late` after both upper ones. A request with the two created bounds (or the
 * two updated ones) confirms each of the pair by the one collection it alone leaves out.
 */
const COLLECTION_TIMES = { inside: [20, 40], early: [0, 10], late: [35, 70] } as const;

export interface ProbeCollections {
  /** Inside every bound; the open-task note is in it. */
  inside: string;
  /** Before both lower bounds (created_after, updated_after leave it out). */
  early: string;
  /** After both upper bounds (created_before, updated_before leave it out). */
  late: string;
  /** The bound values (ISO instants), for both the collection list and search. */
  bounds: Record<BoundKey, string>;
  /** In the inside collection's title only; `word` is in all three titles. */
  insideWord: string;
  word: string;
}

/** Three backdated collections in a window of the years 2001-2019 that no other data shares. */
export async function createProbeCollections(s: ProbeSession): Promise<ProbeCollections> {
  const base = Date.UTC(2001, 0, 1) + randomInt(0, 18 * 365 * 86_400) * 1000;
  const at = (seconds: number) => new Date(base + seconds * 1000).toISOString();
  const word = s.word();
  const insideWord = s.word();
  const ids = {} as Record<keyof typeof COLLECTION_TIMES, string>;
  for (const [key, [created, updated]] of Object.entries(COLLECTION_TIMES) as Array<
    [keyof typeof COLLECTION_TIMES, readonly [number, number]]
  >) {
    const title = `Probe ${key === 'inside' ? insideWord : s.word()} ${word}`;
    const json = await s.createCollection(
      { title, created_at: at(created), updated_at: at(updated) },
      `create backdated collection ${key}`,
    );
    ids[key] = String(json.id);
  }
  return {
    ...ids,
    bounds: Object.fromEntries(BOUND_KEYS.map((k) => [k, at(BOUNDS_S[k])])) as Record<BoundKey, string>,
    insideWord,
    word,
  };
}

function noteOf(json: Record<string, unknown>, step: string): ProbeNote {
  if (typeof json.version !== 'number') throw new KitError(`${step}: the response has no numeric version`);
  return { id: String(json.id), version: json.version };
}

/**
 * The four notes, backdated into a second of the years 2001-2019 that no other data shares; the
 * open-task note's first line is a heading (`# Heading <word> #`) and it is in `collection`.
 */
export async function createProbeNotes(s: ProbeSession, collection: string | undefined): Promise<ProbeNotes> {
  const start = Date.UTC(2001, 0, 1) + randomInt(0, 18 * 365 * 86_400) * 1000;
  const word = s.word();
  const text = `Heading ${s.word()}`;
  const line = `# ${text} #`;
  const sent: ProbeNotes['sent'] = [];
  const byKind = {} as Record<ContentKind, ProbeNote>;
  let headed: Record<string, unknown> = {};
  for (const kind of CONTENT_KINDS) {
    const first = kind === 'open' ? line : `Probe ${kind} ${s.word()}`;
    const offsets = OFFSETS[kind];
    const body = {
      content: `${first}\n${MARKERS[kind]}\n${word}\n${s.marker}`,
      created_at: new Date(start + offsets.created_at).toISOString(),
      updated_at: new Date(start + offsets.updated_at).toISOString(),
      ...(kind === 'open' && collection ? { collection_ids: [collection] } : {}),
    };
    const step = `create the probe's ${kind} note`;
    const json = await s.createNote(body, step);
    for (const field of ['created_at', 'updated_at'] as const)
      sent.push({ field, ms: start + offsets[field], returned: json[field] });
    byKind[kind] = noteOf(json, step);
    if (kind === 'open') headed = json;
  }
  return { byKind, heading: { line, text, created: headed }, word, start, end: start + NOTES_WINDOW_MS, sent };
}
