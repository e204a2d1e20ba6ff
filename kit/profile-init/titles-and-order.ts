import { randomInt } from 'node:crypto';
import type { Exchange } from '../../suites/harness/client.js';
import { KitError } from '../../suites/harness/errors.js';
import { type Finding, notObserved, observed } from './findings.js';
import type { ProbeNote } from './refusals.js';
import type { ProbeSession } from './session.js';

const titleOf = (json: unknown) => String((json as { title?: unknown } | undefined)?.title ?? '').trim();

function noteOf(json: Record<string, unknown>, step: string): ProbeNote {
  if (typeof json.version !== 'number') throw new KitError(`${step}: the response has no numeric version`);
  return { id: String(json.id), version: json.version };
}

/**
 * Title derivation: a note whose first line is `# Heading <word> #`, its title in the create
 * response and in a read. The kit's check sends `## text` and expects `text` or `## text`.
 */
export async function probeTitle(
  s: ProbeSession,
): Promise<{ note: ProbeNote; title: Finding<'as_is' | 'strip_heading_markers'> }> {
  const text = `Heading ${s.word()}`;
  const line = `# ${text} #`;
  const created = await s.createNote({ content: `${line}\n${s.marker}` }, 'create a note with a heading');
  const note = noteOf(created, 'create a note with a heading');
  const read = await s.send('getNote', { method: 'GET', path: `/v2/notes/${note.id}` });
  const titles = [titleOf(created), titleOf(read.json)];
  const how = `a note whose first line is "# Heading … #" got the title "${titles[0]!.replace(text, 'Heading …')}"`;
  if (read.status !== 200 || titles[0] !== titles[1]) {
    return {
      note,
      title: notObserved(
        `the create response's title "${titles[0]}" and the read's (${read.status}) "${titles[1]}" differ`,
      ),
    };
  }
  if (titles[0] === line) return { note, title: observed('as_is', how) };
  if (titles[0] === text) return { note, title: observed('strip_heading_markers', how) };
  if (titles[0] === `${text} #`)
    return { note, title: observed('strip_heading_markers', `${how} (the closing # kept)`) };
  return { note, title: notObserved(`${how}, which is neither kept as is nor stripped of its markers`) };
}

/** Two notes backdated into a second of the years 2001-2019 that no other data shares, with milliseconds. */
export interface DatedNotes {
  a: ProbeNote;
  b: ProbeNote;
  /** Start of the window (a whole second); both notes lie within 4 s after it. */
  start: number;
  /** Timestamps sent (ms) and what came back, for the precision. */
  sent: Array<{ field: string; ms: number; returned: unknown }>;
}

/** Offsets into the window, with distinct millisecond parts: b is newer than a by both fields. */
const A = { created_at: 123, updated_at: 1_456 };
const B = { created_at: 2_789, updated_at: 3_321 };

export async function createDatedNotes(s: ProbeSession): Promise<DatedNotes> {
  const start = Date.UTC(2001, 0, 1) + randomInt(0, 18 * 365 * 86_400) * 1000;
  const sent: DatedNotes['sent'] = [];
  const create = async (name: string, offsets: typeof A) => {
    const body = {
      content: `Dated ${name} ${s.word()}\n${s.marker}`,
      created_at: new Date(start + offsets.created_at).toISOString(),
      updated_at: new Date(start + offsets.updated_at).toISOString(),
    };
    const json = await s.createNote(body, `create backdated note ${name}`);
    for (const field of ['created_at', 'updated_at'] as const)
      sent.push({ field, ms: start + offsets[field], returned: json[field] });
    return noteOf(json, `create backdated note ${name}`);
  };
  return { a: await create('a', A), b: await create('b', B), start, sent };
}

/**
 * List order: both notes listed in their window by order_by=created_at and by updated_at; b is
 * the newer by both, so whichever comes first tells the direction.
 */
export async function probeListOrder(
  s: ProbeSession,
  dated: DatedNotes,
): Promise<Finding<'newest_first' | 'oldest_first'>> {
  const after = new Date(dated.start).toISOString();
  const before = new Date(dated.start + 4_000).toISOString();
  const seen: string[] = [];
  for (const [by, bound] of [
    ['created_at', 'created'],
    ['updated_at', 'updated'],
  ] as const) {
    const x = await s.send('listNotes', {
      method: 'GET',
      path: '/v2/notes',
      query: { order_by: by, [`filter_by_${bound}_after`]: after, [`filter_by_${bound}_before`]: before, limit: 10 },
    });
    const ids = resultIds(x);
    const [ia, ib] = [ids.indexOf(dated.a.id), ids.indexOf(dated.b.id)];
    if (x.status !== 200 || ia === -1 || ib === -1) {
      return notObserved(
        `listing the two backdated notes' window with order_by=${by} answered ${x.status} without both notes`,
      );
    }
    seen.push(ib < ia ? 'newest_first' : 'oldest_first');
  }
  if (seen[0] !== seen[1])
    return notObserved(`order_by=created_at listed ${seen[0]} but order_by=updated_at ${seen[1]}`);
  const order = seen[0] as 'newest_first' | 'oldest_first';
  return observed(
    order,
    `two notes backdated with distinct created_at and updated_at, listed in their window by each: ${order === 'newest_first' ? 'the newer' : 'the older'} came first`,
  );
}

function resultIds(x: Exchange): string[] {
  const results = (x.json as { results?: unknown } | undefined)?.results;
  return Array.isArray(results) ? results.map((r) => String((r as { id?: unknown })?.id)) : [];
}
