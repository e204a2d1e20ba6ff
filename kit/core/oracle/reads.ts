import { learnTrashed, learnVersion } from '../behaviour/effects.js';
import { type KnownNote, settled } from '../behaviour/state.js';
import { agreeCollection } from './agree-collection.js';
import { agreeNote } from './agree-note.js';
import type { Env } from './env.js';
import { type Observation, objectOf } from './observation.js';

/** GET /v2/notes/{id}: the full note agrees with everything known; what was unknown is learnt. */
export function getNote(env: Env, o: Observation): void {
  const n = env.world.notes.get(o.params.note_id ?? '');
  if (!n || !settled(n.clock, o.startSeq, o.startedAt)) return;
  const what = `${o.method} ${o.path}`;
  if (o.x.status >= 400 && o.x.status < 500 && !n.deleted && n.owner === o.actor) {
    // The owner's read of a note the run knows is alive: a refused delete or trash took effect.
    const refusal = n.refusals.find((r) => 'deleted' in r.asked);
    if (refusal)
      env.j.that(
        refusal.rule,
        false,
        () =>
          `${what} answered ${o.x.status}: the note is gone, though its delete was refused` +
          ` (${refusal.by.method} ${refusal.by.path} answered ${refusal.by.status})`,
        o.x,
        refusal.by,
      );
    else if (n.trashed?.value)
      env.j.that(
        'notes.trash.readable-by-id',
        false,
        () => `${what} answered ${o.x.status} for a trashed note, which stays readable by id`,
        o.x,
        n.trashed.by,
      );
    return;
  }
  if (o.x.status < 200 || o.x.status >= 300) return;
  const r = objectOf(o.x.json);
  if (n.deleted) {
    env.j.that(
      'notes.delete.permanent',
      false,
      () => `${what} answered ${o.x.status} for a note deleted by ${n.deleted!.by.method} ${n.deleted!.by.path}`,
      o.x,
      n.deleted.by,
    );
    return;
  }
  if (r.id !== n.id) return;
  agreeNote(env, n, r, 'full', o.x);
  // A note a fixture gave media (or a request left unknown) is forgotten: its content is no longer known.
  // Whether markdown images or links in the content become attachments is not shown: only plain content is judged.
  if (n.content && !/!\[|\]\(/.test(n.content.value)) noMedia(env, r, o);
  learn(n, r, o);
}

/** A note the run made with a create, and nothing since gave media: both media lists read empty. */
function noMedia(env: Env, r: Record<string, unknown>, o: Observation): void {
  for (const field of ['audio_recording_ids', 'attachment_metadata'])
    if (field in r)
      env.j.that(
        'notes.read.response-fields',
        Array.isArray(r[field]) && (r[field] as unknown[]).length === 0,
        () =>
          `${o.method} ${o.path}: ${field} is ${JSON.stringify(r[field]).slice(0, 200)} for a note created with content only`,
        o.x,
      );
}

/** Values a read tells that the shadow did not know (after an operation with an effect not shown). */
function learn(n: KnownNote, r: Record<string, unknown>, o: Observation): void {
  if (!n.version) learnVersion(n, r.version, o.ev);
  if (!n.trashed && 'trashed_at' in r) learnTrashed(n, r.trashed_at, o.ev);
}

/** GET /v2/collections/{id}: metadata and note_count agree with everything known. */
export function getCollection(env: Env, o: Observation): void {
  const c = env.world.collections.get(o.params.collection_id ?? '');
  if (!c || !settled(c.clock, o.startSeq, o.startedAt)) return;
  if (o.x.status < 200 || o.x.status >= 300) return;
  if (c.deleted) {
    env.j.that(
      'collections.delete.permanent',
      false,
      () =>
        `${o.method} ${o.path} answered ${o.x.status} for a collection deleted by ${c.deleted!.by.method} ${c.deleted!.by.path}`,
      o.x,
      c.deleted.by,
    );
    return;
  }
  const r = objectOf(o.x.json);
  if (r.id !== c.id) return;
  agreeCollection(env, c, r, o.x);
  noNoteList(env, c.members, r, o);
}

/** "Reads metadata only (no note list)": no list at all, and no note the collection holds named anywhere. */
function noNoteList(
  env: Env,
  members: ReadonlySet<string> | undefined,
  r: Record<string, unknown>,
  o: Observation,
): void {
  const lists = Object.keys(r).filter((k) => Array.isArray(r[k]));
  const text = JSON.stringify(r);
  const named = [...(members ?? [])].filter((id) => text.includes(id));
  env.j.that(
    'collections.read.no-note-list',
    lists.length === 0 && named.length === 0,
    () =>
      lists.length > 0
        ? `${o.method} ${o.path} carries a list (${lists.join(', ')}); a collection read is metadata only`
        : `${o.method} ${o.path} names note ${named[0]}, which the collection holds; a collection read is metadata only`,
    o.x,
  );
}
