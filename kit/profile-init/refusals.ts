import { randomUUID } from 'node:crypto';
import { REFUSAL_KINDS, type RefusalKind } from '../../spec/profile.js';
import type { Exchange } from '../core/client.js';
import { type Finding, notObserved, observed, type RefusalSample } from './findings.js';
import type { ProbeSession } from './session.js';

/** A note the probe created: its id and the version of its latest write. */
export interface ProbeNote {
  id: string;
  version: number;
}

/** The refusals provoked, and for kinds with none, why. */
export interface Provoked {
  samples: RefusalSample[];
  why: Partial<Record<RefusalKind, string>>;
}

/** Why a kind is never provoked by the probe (unless the target refuses it on its own, as a 429). */
const NEVER_PROVOKED: Partial<Record<RefusalKind, string>> = {
  quota_exceeded:
    "provoking it needs the account's note quota spent; its body is documented (error.type quota_exceeded), its status is not",
  cursor_mismatch:
    'provoking it needs the name of the list cursor parameter, which the document does not show (names.notes_list.cursor)',
  rate_limited:
    'the target did not rate-limit the probe; emptying its bucket would take more requests than the probe may send',
};

const sample = (kind: RefusalKind, what: string, x: Exchange): RefusalSample => ({ kind, what, x });

/** POST /v2/notes without content; a note it makes anyway is deleted with the others. */
async function provokeValidation(s: ProbeSession): Promise<RefusalSample> {
  const x = await s.send('createNote', { method: 'POST', path: '/v2/notes', json: {} });
  s.noteIfCreated(x);
  return sample('validation', 'POST /v2/notes without content', x);
}

/** Reads of a note and a collection that do not exist (the kit compares both with statuses.not_found). */
async function provokeNotFound(s: ProbeSession): Promise<RefusalSample[]> {
  const note = await s.send('getNote', { method: 'GET', path: `/v2/notes/${randomUUID()}` });
  const collection = await s.send('getCollection', { method: 'GET', path: `/v2/collections/${randomUUID()}` });
  return [
    sample('not_found', 'GET of a note that does not exist', note),
    sample('not_found', 'GET of a collection that does not exist', collection),
  ];
}

async function provokeUnauthenticated(s: ProbeSession, note: ProbeNote): Promise<RefusalSample> {
  const x = await s.send('getNote', { method: 'GET', path: `/v2/notes/${note.id}` }, 'anonymous');
  return sample('unauthenticated', "GET of the probe's note without Authorization", x);
}

/** A second user's update of the probe's note: a refusal that differs from "not found" is forbidden. */
async function provokeForbidden(s: ProbeSession, note: ProbeNote): Promise<RefusalSample> {
  const body = { content: `Not yours ${s.word()}\n${s.marker}`, version: note.version };
  const x = await s.send('updateNote', { method: 'PATCH', path: `/v2/notes/${note.id}`, json: body }, 'secondary');
  return sample('forbidden', "a second user's PATCH of the probe's note", x);
}

/**
 * An update with the version before the latest write (version_mismatch), then, with the note
 * in the trash, an update and a set-created-at (trashed): the kit's own refusal check sends these.
 */
async function provokeVersionAndTrash(
  s: ProbeSession,
  note: ProbeNote,
  why: Provoked['why'],
): Promise<RefusalSample[]> {
  const out: RefusalSample[] = [];
  const update = (version: number, word: string) =>
    s.send('updateNote', {
      method: 'PATCH',
      path: `/v2/notes/${note.id}`,
      json: { content: `${word} ${s.word()}\n${s.marker}`, version },
    });
  const fresh = await update(note.version, 'Updated');
  const newVersion = (fresh.json as { version?: unknown } | undefined)?.version;
  if (fresh.status < 200 || fresh.status > 299 || typeof newVersion !== 'number') {
    why.version_mismatch = `an update with the current version answered ${fresh.status}, so a stale one proves nothing`;
  } else {
    out.push(
      sample(
        'version_mismatch',
        'PATCH with the version before the latest update',
        await update(note.version, 'Stale'),
      ),
    );
  }
  const trash = await s.send('trashNote', { method: 'POST', path: `/v2/notes/${note.id}/trash` });
  if (trash.status < 200 || trash.status > 299) {
    why.trashed = `POST /v2/notes/{note_id}/trash answered ${trash.status}, so the note never reached the trash`;
    return out;
  }
  out.push(
    sample(
      'trashed',
      'PATCH of a trashed note',
      await update(typeof newVersion === 'number' ? newVersion : note.version, 'Trashed'),
    ),
  );
  const dated = await s.send('setNoteCreatedAt', {
    method: 'PATCH',
    path: `/v2/notes/${note.id}/created-at`,
    json: { created_at: '2000-01-01T00:00:00Z' },
  });
  out.push(sample('trashed', 'set-created-at of a trashed note', dated));
  return out;
}

/** A search page past the first with a snapshot_id the target never issued (as the kit's check sends). */
async function provokeUnknownSnapshot(s: ProbeSession): Promise<RefusalSample> {
  const x = await s.send('searchNotes', {
    method: 'POST',
    path: '/v2/notes/search',
    query: { limit: 2, offset: 2, snapshot_id: randomUUID() },
    json: { query: s.word() },
  });
  return sample('unknown_snapshot', 'a search page with a snapshot_id never issued', x);
}

/**
 * Provokes every refusal kind a minimal request on the probe's own data can provoke. `victim`
 * is trashed and updated on the way; `other` is only read and (by the second user) written to.
 */
export async function provokeRefusals(s: ProbeSession, victim: ProbeNote, other: ProbeNote): Promise<Provoked> {
  const why: Provoked['why'] = { ...NEVER_PROVOKED };
  const samples: RefusalSample[] = [
    await provokeValidation(s),
    ...(await provokeNotFound(s)),
    await provokeUnauthenticated(s, other),
  ];
  if (s.hasSecondary) samples.push(await provokeForbidden(s, other));
  else why.forbidden = 'needs a second user: give --secondary-token';
  samples.push(...(await provokeVersionAndTrash(s, victim, why)), await provokeUnknownSnapshot(s));
  // A target that slowed the probe down with 429 showed its rate-limit refusal on its own.
  const limited = s.answers.find((a) => a.x.status === 429);
  if (limited) {
    samples.push(
      sample('rate_limited', `${limited.x.method} ${limited.x.path.split('?')[0]} while the probe ran`, limited.x),
    );
    delete why.rate_limited;
  }
  return { samples, why };
}

const isRefusal = (x: Exchange) => x.status >= 400 && x.status < 500;

/**
 * The status of each kind: observed when every sample of the kind got the same 4xx. The
 * forbidden sample (a stranger's write) counts only when it differs from a missing note's answer:
 * a target that answers strangers "not found" hides the notes, which says nothing about the
 * status for a user who may read a note but not edit it.
 */
export function statusFindings(
  provoked: Provoked,
  sameAsNotFound: (x: Exchange) => boolean,
): Record<RefusalKind, Finding<number>> {
  const out = {} as Record<RefusalKind, Finding<number>>;
  for (const kind of REFUSAL_KINDS) {
    const mine = provoked.samples.filter((p) => p.kind === kind);
    out[kind] = mine.length === 0 ? notObserved(provoked.why[kind] ?? 'not provoked') : statusOf(mine);
  }
  const stranger = provoked.samples.find((p) => p.kind === 'forbidden');
  if (stranger && isRefusal(stranger.x) && sameAsNotFound(stranger.x)) {
    out.forbidden = notObserved(
      `${stranger.what} answered ${stranger.x.status} like a missing note (the target hides other users' notes); ` +
        'a user who may read but not edit a note needs a share, which the document does not show',
    );
  }
  return out;
}

function statusOf(samples: RefusalSample[]): Finding<number> {
  const bad = samples.find((p) => !isRefusal(p.x));
  if (bad) return notObserved(`${bad.what} answered ${bad.x.status}, which is not a refusal`);
  const first = samples[0]!;
  const other = samples.find((p) => p.x.status !== first.x.status);
  if (other)
    return notObserved(
      `${first.what} answered ${first.x.status} but ${other.what} ${other.x.status}; the kit expects one status per kind`,
    );
  return observed(first.x.status, `${samples.map((p) => p.what).join('; ')}: ${first.x.status}`);
}
