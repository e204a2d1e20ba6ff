import type { Env } from './env.js';
import { isTokenUser } from './note-writes.js';
import type { Observation } from './observation.js';

/** Operations on one note or collection by id, and the isolation rule a stranger's success breaks. */
const ON_NOTE = new Set(['getNote', 'updateNote', 'setNoteCreatedAt', 'trashNote', 'deleteNote', 'getRelatedNotes']);
const ON_COLLECTION = new Set(['getCollection', 'updateCollection', 'deleteCollection']);

/**
 * A user reached another token user's resource that was never shared (grants go only to fixture
 * users): any success is a breach of scope, whichever check sent it. The refusal's other half,
 * "and it is unchanged", is judged by the owner's next reading (the refusal is on record).
 */
export function isolation(env: Env, o: Observation): void {
  if (!o.op || !isTokenUser(o.actor) || !o.ownToken) return;
  const ok = o.x.status >= 200 && o.x.status < 300;
  if (ON_NOTE.has(o.op)) {
    const n = env.world.notes.get(o.params.note_id ?? '');
    if (!n || !isTokenUser(n.owner) || n.owner === o.actor || n.deleted) return;
    const rule = o.op === 'getRelatedNotes' ? 'notes.related.requires-access' : 'auth.scope.notes-isolated';
    env.j.that(
      rule,
      !ok,
      () => `${o.method} ${o.path} as the ${o.actor} user, on a note of the ${n.owner} user, answered ${o.x.status}`,
      o.x,
    );
    if (!ok) revealed(env, o, n.title?.value, n.content?.value, 'auth.scope.notes-isolated');
  } else if (o.op === 'addNoteToCollection') {
    // Into one's own collection, another token user's note (never shared with the caller).
    const n = env.world.notes.get(o.params.note_id ?? '');
    if (!n || !isTokenUser(n.owner) || n.owner === o.actor || n.deleted) return;
    env.j.that(
      'membership.add.requires-note-access',
      !ok,
      () => `${o.method} ${o.path} as the ${o.actor} user added a note of the ${n.owner} user (${o.x.status})`,
      o.x,
    );
  } else if (ON_COLLECTION.has(o.op)) {
    const c = env.world.collections.get(o.params.collection_id ?? '');
    if (!c || !isTokenUser(c.owner) || c.owner === o.actor || c.deleted) return;
    env.j.that(
      'auth.scope.collections-isolated',
      !ok,
      () =>
        `${o.method} ${o.path} as the ${o.actor} user, on a collection of the ${c.owner} user, answered ${o.x.status}`,
      o.x,
    );
    if (!ok) revealed(env, o, c.title?.value, c.description?.value ?? undefined, 'auth.scope.collections-isolated');
  }
}

/** A refusal to a stranger must not carry what it refuses to show (a title, a content). */
function revealed(
  env: Env,
  o: Observation,
  title: string | undefined,
  content: string | undefined,
  rule: string,
): void {
  const secrets = [title, content].filter((s): s is string => typeof s === 'string' && s.length >= 12);
  env.j.that(
    rule,
    !secrets.some((s) => o.x.text.includes(s)),
    () => `${o.method} ${o.path} refused the ${o.actor} user (${o.x.status}) but its body shows the resource's text`,
    o.x,
  );
}
