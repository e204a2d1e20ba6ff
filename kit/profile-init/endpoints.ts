import type { EndpointDecl } from '../../spec/profile.js';
import { endpointCandidates } from './candidates.js';
import type { Finding } from './findings.js';
import type { ProbeNote } from './refusals.js';
import type { ProbeSession } from './session.js';
import { confirmed, failedAnswer, firstConfirmed, notConfirmed } from './trials.js';

/**
 * The restore and remove-from-collection endpoints (paths not shown): each candidate is sent on
 * the probe's own note, and kept only when a read afterwards shows the effect (the note active
 * again; the note out of the collection). Candidates never name another resource than the probe's.
 */

const label = (e: EndpointDecl) => `${e.method} ${e.path}`;
const fill = (path: string, values: Record<string, string>) =>
  path.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);

async function tryEndpoint(
  s: ProbeSession,
  op: string,
  e: EndpointDecl,
  values: Record<string, string>,
  note: string,
  effect: (read: Record<string, unknown>) => string | undefined,
) {
  const x = await s.attempt(op, { method: e.method, path: fill(e.path, values) });
  const failed = failedAnswer(x);
  if (failed) return notConfirmed(failed);
  const read = await s.send('getNote', { method: 'GET', path: `/v2/notes/${note}` });
  if (read.status !== 200)
    return notConfirmed(`answered ${x.status}, but a read of the note then answered ${read.status}`);
  const problem = effect(read.json as Record<string, unknown>);
  return problem ? notConfirmed(`answered ${x.status}, but ${problem}`) : undefined;
}

/** Restore: `trashed` is in the trash; a candidate that brings it back is the endpoint. */
export async function probeRestore(s: ProbeSession, trashed: ProbeNote): Promise<Finding<EndpointDecl>> {
  return firstConfirmed(
    s,
    endpointCandidates('restore_note'),
    label,
    async (e) =>
      (await tryEndpoint(s, 'restoreNote', e, { note_id: trashed.id }, trashed.id, (note) =>
        note.trashed_at === null || note.trashed_at === undefined
          ? undefined
          : `a read still showed trashed_at ${JSON.stringify(note.trashed_at)}`,
      )) ?? confirmed('answered 2xx on the trashed probe note, and a read then showed it active (trashed_at null)'),
    2,
  );
}

/** Remove from collection: `note` is in `collection`; a candidate that takes it out is the endpoint. */
export async function probeRemove(s: ProbeSession, note: string, collection: string): Promise<Finding<EndpointDecl>> {
  return firstConfirmed(
    s,
    endpointCandidates('remove_note_from_collection'),
    label,
    async (e) =>
      (await tryEndpoint(
        s,
        'removeNoteFromCollection',
        e,
        { note_id: note, collection_id: collection },
        note,
        (read) =>
          Array.isArray(read.collection_ids) && !read.collection_ids.includes(collection)
            ? undefined
            : `a read still showed the note in the collection (collection_ids ${JSON.stringify(read.collection_ids)})`,
      )) ?? confirmed("answered 2xx on the probe's note and collection, and a read then showed the note out of it"),
    2,
  );
}
