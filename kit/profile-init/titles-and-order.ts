import type { Exchange } from '../core/client.js';
import { type Finding, notObserved, observed } from './findings.js';
import type { ProbeNotes } from './probe-data.js';
import type { ProbeSession } from './session.js';

const titleOf = (json: unknown) => String((json as { title?: unknown } | undefined)?.title ?? '').trim();

/**
 * Title derivation: the open-task note's first line is `# Heading <word> #`; its title in the
 * create response and in a read. The kit's check sends `## text` and expects `text` or `## text`.
 */
export async function probeTitle(
  s: ProbeSession,
  notes: ProbeNotes,
): Promise<Finding<'as_is' | 'strip_heading_markers'>> {
  const { line, text, created } = notes.heading;
  const read = await s.send('getNote', { method: 'GET', path: `/v2/notes/${notes.byKind.open.id}` });
  const titles = [titleOf(created), titleOf(read.json)];
  const how = `a note whose first line is "# Heading … #" got the title "${titles[0]!.replace(text, 'Heading …')}"`;
  if (read.status !== 200 || titles[0] !== titles[1])
    return notObserved(
      `the create response's title "${titles[0]}" and the read's (${read.status}) "${titles[1]}" differ`,
    );
  if (titles[0] === line) return observed('as_is', how);
  if (titles[0] === text) return observed('strip_heading_markers', how);
  if (titles[0] === `${text} #`) return observed('strip_heading_markers', `${how} (the closing # kept)`);
  return notObserved(`${how}, which is neither kept as is nor stripped of its markers`);
}

/**
 * List order: the probe's notes listed in their window by order_by=created_at and by updated_at;
 * the file note is newer than the open-task note by both, so whichever comes first tells the direction.
 */
export async function probeListOrder(
  s: ProbeSession,
  notes: ProbeNotes,
): Promise<Finding<'newest_first' | 'oldest_first'>> {
  const after = new Date(notes.start).toISOString();
  const before = new Date(notes.end).toISOString();
  const [a, b] = [notes.byKind.open, notes.byKind.file];
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
    const [ia, ib] = [ids.indexOf(a.id), ids.indexOf(b.id)];
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
    `notes backdated with distinct created_at and updated_at, listed in their window by each: ${order === 'newest_first' ? 'the newer' : 'the older'} came first`,
  );
}

export function resultIds(x: Exchange): string[] {
  const results = (x.json as { results?: unknown } | undefined)?.results;
  return Array.isArray(results) ? results.map((r) => String((r as { id?: unknown })?.id)) : [];
}
