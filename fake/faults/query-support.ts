import type { ServiceContext } from '../service/context.js';
import { DomainError } from '../service/errors.js';
import { type ContainsFilter, readContains } from '../service/notes-list.js';
import { type Input, parseTimestamp } from '../service/validate.js';
import type { View } from '../service/views.js';
import type { NoteRecord } from '../store/records.js';

/**
 * Helpers for the list, search and related-notes faults: they rewrite the time bounds a request
 * sends, or run the reference as if many notes looked different for the length of one request.
 */

/** A bound as the reference reads it; undefined when absent or invalid (the reference refuses that itself). */
function instant(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  try {
    return parseTimestamp(value, 'bound');
  } catch (error) {
    if (error instanceof DomainError) return undefined;
    throw error;
  }
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Bounds moved a millisecond inwards: inclusive comparisons on them act as exclusive ones on the sent bounds. */
export function exclusiveBounds(input: Input): Record<string, string> {
  const patch: Record<string, string> = {};
  const steps = [
    ['created_after', 1],
    ['updated_after', 1],
    ['created_before', -1],
    ['updated_before', -1],
  ] as const;
  for (const [field, step] of steps) {
    const ms = instant(input[field]);
    if (ms !== undefined) patch[field] = iso(ms + step);
  }
  return patch;
}

/** The updated_* bounds folded into the created_* ones: every bound then compares created_at. */
export function updatedBoundsOnCreated(input: Input): Record<string, string | undefined> {
  const fieldNames = ['created_after', 'created_before', 'updated_after', 'updated_before'] as const;
  const [ca, cb, ua, ub] = fieldNames.map((f) => instant(input[f]));
  const sent = (f: string) => input[f] !== undefined;
  // Leave a request with an invalid bound as it is: the reference refuses it.
  if ((sent('updated_after') && ua === undefined) || (sent('updated_before') && ub === undefined)) return {};
  if ((sent('created_after') && ca === undefined) || (sent('created_before') && cb === undefined)) return {};
  if (ua === undefined && ub === undefined) return {};
  const after = [ca, ua].filter((v) => v !== undefined);
  const before = [cb, ub].filter((v) => v !== undefined);
  return {
    created_after: after.length ? iso(Math.max(...after)) : undefined,
    created_before: before.length ? iso(Math.min(...before)) : undefined,
    updated_after: undefined,
    updated_before: undefined,
  };
}

/**
 * Runs the operation as if some notes had another value in one field (`wanted` returns undefined
 * to leave a note alone), then puts back each value the run did not change itself.
 */
export function pretendingEach<K extends keyof NoteRecord>(
  notes: Iterable<NoteRecord>,
  key: K,
  wanted: (note: NoteRecord) => NoteRecord[K] | undefined,
  run: () => View,
): View {
  const changed: Array<{ note: Record<K, NoteRecord[K]>; saved: NoteRecord[K]; value: NoteRecord[K] }> = [];
  for (const note of notes) {
    const value = wanted(note);
    if (value === undefined || value === note[key]) continue;
    const writable = note as Record<K, NoteRecord[K]>;
    changed.push({ note: writable, saved: note[key], value });
    writable[key] = value;
  }
  try {
    return run();
  } finally {
    for (const { note, saved, value } of changed) if (note[key] === value) note[key] = saved;
  }
}

/** The contains filters a request sets to true (`isTrue` reads one flag); invalid flags count as unset. */
export function wantedFeatures(input: Input, isTrue: (value: unknown) => boolean): ContainsFilter {
  return readContains(input, (field) => isTrue(input[field]));
}

/**
 * Runs the operation as if notes lacking any wanted feature had none of them: the reference's OR
 * across the contains filters then admits exactly the notes that have all of them (AND).
 */
export function containsAll(ctx: ServiceContext, wanted: ContainsFilter, run: () => View): View {
  if (wanted.count < 2) return run();
  const all = wanted.bits;
  const lackingSome = (n: NoteRecord) => ((n.features & all) === all ? undefined : n.features & ~all);
  return pretendingEach(ctx.store.notes.values(), 'features', lackingSome, run);
}

/**
 * Runs the operation as if the caller owned every note (but `except`): isolation between users is
 * gone. The search index files notes under their owner, so each pretended note is re-filed for the
 * request and filed back after it.
 */
export function owningAll(ctx: ServiceContext, userId: string, run: () => View, except?: string): View {
  const { search } = ctx.store;
  const changed: Array<{ note: NoteRecord; saved: string }> = [];
  for (const note of ctx.store.notes.values()) {
    if (note.id === except || note.ownerId === userId) continue;
    search.remove(note.seq);
    changed.push({ note, saved: note.ownerId });
    ctx.store.refileNote(note, userId);
    search.add(note.seq);
  }
  try {
    return run();
  } finally {
    for (const { note, saved } of changed) {
      if (note.ownerId !== userId) continue;
      search.remove(note.seq);
      if (ctx.store.notesBySeq[note.seq] === note) {
        ctx.store.refileNote(note, saved);
        search.add(note.seq);
      } else (note as { ownerId: string }).ownerId = saved;
    }
  }
}
