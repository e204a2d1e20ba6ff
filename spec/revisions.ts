import { readFileSync } from 'node:fs';
import { specFile } from './paths.js';

/** One row of the API document's revision table (part 9, Versioning): the date a change entered the API. */
export interface ApiRevision {
  readonly date: string;
  readonly change: string;
}

let cached: readonly ApiRevision[] | undefined;

/**
 * The document's revision table, newest first, as the document has it: the one source of the
 * dates the rules carry (`since` in rules.yaml, checked against this table by the rules test).
 */
export function apiRevisions(): readonly ApiRevision[] {
  if (cached) return cached;
  const text = readFileSync(specFile('api', 'notes-collections-v2.md'), 'utf8');
  const part = text.slice(text.indexOf('\n## 9. Versioning'));
  const rows = [...part.matchAll(/^\| (\d{4}-\d{2}-\d{2}) \| (.+?) \|$/gm)].map((m) => ({
    date: m[1]!,
    change: m[2]!,
  }));
  if (rows.length === 0) throw new Error('the API document has no revision table in part 9');
  cached = Object.freeze(rows);
  return cached;
}

/** The date the /v2 series was released: a rule older than the table carries it. */
export function v2Release(): string {
  const row = apiRevisions().find((r) => r.change.startsWith('/v2 series released'));
  if (!row) throw new Error('the revision table has no "/v2 series released" row');
  return row.date;
}

/** The revision in force on a date: the newest change of the table on or before it. */
export function revisionOn(date: string): string {
  return apiRevisions().find((r) => r.date <= date)?.date ?? v2Release();
}

/** The newest revision of the document. */
export function latestRevision(): string {
  return apiRevisions()[0]!.date;
}

/**
 * Operations a row of the table added after the /v2 release, by the words the row starts with
 * (the dates come from the table). Every other operation is as old as /v2.
 */
export const OPERATIONS_ADDED: Readonly<Record<string, string>> = {
  setNoteCreatedAt: 'Added PATCH /v2/notes/{note_id}/created-at',
  moveNote: 'Added the move endpoint and membership endpoints',
  addNoteToCollection: 'Added the move endpoint and membership endpoints',
  removeNoteFromCollection: 'Added the move endpoint and membership endpoints',
  updateCollection: 'Collection update added',
  listNotes: 'Listing and searching notes and collections',
  searchNotes: 'Listing and searching notes and collections',
  listCollections: 'Listing and searching notes and collections',
  searchCollections: 'Listing and searching notes and collections',
};

/** The date an operation entered the API (the /v2 release for those the table does not name). */
export function operationSince(operationId: string): string {
  const words = OPERATIONS_ADDED[operationId];
  const row = words === undefined ? undefined : apiRevisions().find((r) => r.change.startsWith(words));
  if (words !== undefined && !row) throw new Error(`the revision table has no row "${words}"`);
  return row?.date ?? v2Release();
}

/** Why the kit does not send an operation on `asOf`: it entered the API later (undefined: it may). */
export function operationNotInForce(operationId: string, asOf: string | undefined): string | undefined {
  if (asOf === undefined) return undefined;
  const since = operationSince(operationId);
  return since <= asOf ? undefined : `needs ${operationId}, ${notInForce({ since }, asOf)}`;
}

/** What is wrong with an --as-of date, in the flag's words; undefined when it is a date the kit can judge. */
export function asOfProblem(flag: string, raw: string): string | undefined {
  const time = /^\d{4}-\d{2}-\d{2}$/.test(raw) ? Date.parse(`${raw}T00:00:00Z`) : Number.NaN;
  // Date.parse takes 2026-02-30 as 2 March: only a date that reads back the same is one.
  const real = !Number.isNaN(time) && new Date(time).toISOString().startsWith(raw);
  if (!real) return `${flag} takes a date as YYYY-MM-DD, such as ${latestRevision()} (got ${raw})`;
  if (raw < v2Release())
    return `${flag} ${raw} is before the /v2 series was released (${v2Release()}): the kit judges /v2 only`;
  return undefined;
}

/**
 * Why a rule is not judged on `asOf` (--as-of): its behaviour entered the API after that date.
 * The one place this is decided; undefined when the rule is in force (or no date is given).
 */
export function notInForce(rule: { readonly since: string }, asOf: string | undefined): string | undefined {
  if (asOf === undefined || rule.since <= asOf) return undefined;
  const change = apiRevisions().find((r) => r.date === rule.since)?.change;
  return `not yet in the API on ${asOf} (${rule.since}${change ? `: ${change}` : ''})`;
}
