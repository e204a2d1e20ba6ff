import { randomUUID } from 'node:crypto';
import { LIMITS } from '../../../spec/limits.js';
import type { ContainsKind } from '../../../spec/profile.js';
import {
  addDetermined,
  backdatable,
  backdateInstant,
  backdateLimit,
  moveDetermined,
  removeDetermined,
  staleVersions,
  trashDetermined,
} from '../behaviour/outcomes.js';
import type { KnownNote } from '../behaviour/state.js';
import type { Exchange } from '../client.js';
import { sendEdge } from './edges.js';
import type { Op, OpOf } from './ops.js';
import { currentVersion, iso, pickCollection, pickNote, type Runner } from './runner.js';

/**
 * One executor per operation: picks what the operation acts on among what the sequence made (only
 * where the document determines the outcome: trashing an active note, moving from a collection
 * that holds the note to one that does not), sends it, and reads what it changed. It judges
 * nothing: the API layer hands every answer to the run's oracle, which keeps the state the picks
 * read. Answers undefined where nothing fits the operation in this state (the step is skipped).
 */
export async function runStep(run: Runner, op: Op): Promise<boolean> {
  switch (op.kind) {
    case 'createNote':
      return createNote(run, op);
    case 'createCollection':
      return createCollection(run, op);
    case 'updateNote':
      return updateNote(run, op);
    case 'setCreatedAt':
      return setCreatedAt(run, op);
    case 'trashNote':
    case 'restoreNote':
      return trashOrRestore(run, op.note, op.kind === 'trashNote', op.any);
    case 'deleteNote':
      return deleteNote(run, op.note, op.any);
    case 'readNote':
      return onNote(run, op, 'ReadNote', (n) => run.api.getNote(n.id));
    case 'relatedNotes':
      return onNote(run, op, 'RelatedNotes', (n) => run.api.relatedNotes(n.id, { limit: 5 }));
    case 'readCollection':
      return onCollection(run, op.coll, 'ReadCollection', (id) => run.api.getCollection(id), op.any);
    case 'deleteCollection':
      return onCollection(run, op.coll, 'DeleteCollection', (id) => run.api.deleteCollection(id), op.any);
    case 'updateCollection':
      return onCollection(
        run,
        op.coll,
        `UpdateCollection(${op.same ? 'the title it has' : `renamed ${op.word}`})`,
        (id) =>
          run.api.updateCollection(id, {
            title: (op.same && run.world.collections.get(id)?.title?.value) || `Model collection ${op.word} renamed`,
          }),
        op.any,
      );
    case 'addNote':
    case 'removeNote':
    case 'moveNote':
      return membership(run, op);
    case 'searchNotes':
      return searchNotes(run, op);
    case 'searchCollections':
      return searchCollections(run, op);
    case 'listNotes':
      return listNotes(run, op);
    case 'listCollections':
      return listCollections(run, op);
    case 'edgeInput':
      return sendEdge(run, op);
  }
}

const idOf = (x: Exchange): string | undefined => {
  const id = (x.json as { id?: unknown } | undefined)?.id;
  return x.status >= 200 && x.status < 300 && typeof id === 'string' ? id : undefined;
};

/** A supplied instant in Z or in -05:00 form. */
function stampText(ms: number, zoned: boolean): string {
  return zoned ? new Date(ms - 5 * 3_600_000).toISOString().replace('Z', '-05:00') : iso(ms);
}

/** POST /v2/notes with a fresh id, no id or the id of a note that exists (then read back), supplied times, a collection. */
async function createNote(run: Runner, op: OpOf<'createNote'>): Promise<boolean> {
  const marker = op.marker ? run.profile.content_markers?.[op.marker] : undefined;
  const body0 = `body ${op.word}${marker ? `\n${marker}` : ''}`;
  const content = `${op.heading ? '# ' : ''}${run.content(`Model ${op.word}`, body0)}`;
  if (op.id === 'duplicate') {
    const dup = pickNote(run, op.dup);
    if (!dup) return false;
    run.steps.push(`CreateNote(duplicate of ${dup.id})`);
    await run.api.createNote({ id: dup.id, content });
    await run.api.getNote(dup.id);
    return true;
  }
  const body: Record<string, unknown> = { content };
  if (op.id === 'supplied') body.id = randomUUID();
  if (op.stamps === 'created' || op.stamps === 'both') body.created_at = stampText(run.stamp(), op.zoned);
  if (op.stamps === 'updated' || op.stamps === 'both') body.updated_at = stampText(run.stamp(), op.zoned);
  const into = op.into === null ? undefined : pickCollection(run, op.into);
  if (into) body.collection_ids = [into.id];
  // A deleted collection's title too: "unmatched titles ignored".
  const titled =
    op.titled === undefined ? undefined : pickCollection(run, op.titled, (c) => c.title !== undefined, true);
  if (titled) body.collection_titles = [titled.title!.value.toUpperCase()];
  const x = await run.api.createNote(body);
  const id = idOf(x);
  const extra = [
    ...['created_at', 'updated_at'].filter((k) => k in body),
    ...(into ? [`in ${into.id}`] : []),
    ...(titled ? [`titled ${titled.id}`] : []),
    ...(marker ? [`with ${op.marker!.replace('_', ' ')}`] : []),
  ];
  run.steps.push(
    `CreateNote(${body.id ?? 'generated id'}${extra.length ? `, ${extra.join(', ')}` : ''}) -> ${id ?? x.status}`,
  );
  if (id) run.mine.notes.push(id);
  return true;
}

async function createCollection(run: Runner, op: OpOf<'createCollection'>): Promise<boolean> {
  const title = `Model collection ${op.word}`;
  if (op.id === 'duplicate') {
    const dup = pickCollection(run, op.dup);
    if (!dup) return false;
    run.steps.push(`CreateCollection(duplicate of ${dup.id})`);
    await run.api.createCollection({ id: dup.id, title });
    await run.api.getCollection(dup.id);
    return true;
  }
  const body: Record<string, unknown> = { title };
  if (op.id === 'supplied') body.id = randomUUID();
  if (op.described) body.description = `About ${op.word}`;
  if (op.stamps === 'created' || op.stamps === 'both') body.created_at = iso(run.stamp());
  if (op.stamps === 'updated' || op.stamps === 'both') body.updated_at = iso(run.stamp());
  const x = await run.api.createCollection(body);
  const id = idOf(x);
  const extra = ['description', 'created_at', 'updated_at'].filter((k) => k in body);
  run.steps.push(
    `CreateCollection(${body.id ?? 'generated id'}${extra.length ? `, ${extra.join(', ')}` : ''}) -> ${id ?? x.status}`,
  );
  if (id) run.mine.collections.push(id);
  return true;
}

/**
 * PATCH /v2/notes/{id} with the current, a stale or an ahead version; a trashed note's update too.
 * The version is the one the state knows: after an operation whose effect on it is not shown, a
 * read tells it first ("from a read or the latest write response").
 */
async function updateNote(run: Runner, op: OpOf<'updateNote'>): Promise<boolean> {
  const n = pickNote(run, op.note, (m) => op.version !== 'stale' || staleVersions(m).length > 0, op.any);
  if (!n) return false;
  if (!n.version && n.trashed?.value !== true) await run.api.getNote(n.id);
  const current = currentVersion(n);
  const stale = staleVersions(n);
  const version =
    op.version === 'current' ? current : op.version === 'stale' ? stale[stale.length - 1]! : current + op.ahead;
  const body: Record<string, unknown> = { content: run.content(`Updated ${op.word}`), version };
  // A supplied updated_at: past, and not before the note's created_at (the document bounds it neither way).
  if (op.stamp)
    body.updated_at = iso(Math.max(n.createdAt?.value ?? 0, Date.now() - (2 * run.clock.toleranceMs + 1_000)));
  run.steps.push(
    `UpdateNote(${n.id}, version ${version} [${op.version}; current ${current}]` +
      `${op.stamp ? ', updated_at' : ''}${n.trashed?.value ? ', trashed' : ''})`,
  );
  await run.api.updateNote(n.id, body);
  // A refused update must have changed nothing: the read shows it.
  if (op.version !== 'current') await run.api.getNote(n.id);
  return true;
}

/** PATCH /v2/notes/{id}/created-at: before, between, at, after the original creation, or in the future; then read. */
async function setCreatedAt(run: Runner, op: OpOf<'setCreatedAt'>): Promise<boolean> {
  const n = pickNote(
    run,
    op.note,
    (m) => (op.any === true && backdateLimit(m) !== undefined) || backdatable(m, op.when),
    op.any,
  );
  if (!n) return false;
  const clock = { now: Date.now(), toleranceMs: run.clock.toleranceMs, precisionMs: run.clock.precisionMs };
  const { value, when } = backdateInstant(n, op, clock);
  run.steps.push(`SetCreatedAt(${n.id}, ${iso(value)} [${when}]${n.trashed?.value ? ', trashed' : ''})`);
  await run.api.setCreatedAt(n.id, { created_at: iso(value) });
  await run.api.getNote(n.id);
  return true;
}

/**
 * Trash an active note, restore a trashed one (section 3; the other way round is not documented,
 * and only `any` sends it); then read.
 */
async function trashOrRestore(run: Runner, index: number, trash: boolean, any = false): Promise<boolean> {
  const n = pickNote(run, index, (m) => any || trashDetermined(m, trash), any);
  if (!n) return false;
  run.steps.push(`${trash ? 'TrashNote' : 'RestoreNote'}(${n.id})`);
  await (trash ? run.api.trashNote(n.id) : run.api.restoreNote(n.id));
  await run.api.getNote(n.id);
  // Edits succeed again after a restore: an update at the version the read showed (the explorer
  // sends its own, `any`: it visits the restored state before any edit too).
  if (!trash && !any && n.trashed?.value === false)
    await run.api.updateNote(n.id, {
      content: run.content(`Restored ${n.id.slice(0, 8)}`),
      version: currentVersion(n),
    });
  return true;
}

/** DELETE /v2/notes/{id}, active or trashed; a read of it then is refused. */
async function deleteNote(run: Runner, index: number, deletedToo = false): Promise<boolean> {
  const n = pickNote(run, index, undefined, deletedToo);
  if (!n) return false;
  run.steps.push(`DeleteNote(${n.id}${n.trashed?.value ? ', trashed' : ''})`);
  await run.api.deleteNote(n.id);
  await run.api.getNote(n.id);
  return true;
}

async function onNote(
  run: Runner,
  op: { note: number; any?: boolean },
  name: string,
  send: (n: KnownNote) => Promise<Exchange>,
): Promise<boolean> {
  const n = pickNote(run, op.note, undefined, op.any);
  if (!n) return false;
  run.steps.push(`${name}(${n.id})`);
  await send(n);
  return true;
}

async function onCollection(
  run: Runner,
  index: number,
  name: string,
  send: (id: string) => Promise<Exchange>,
  deletedToo = false,
): Promise<boolean> {
  const c = pickCollection(run, index, undefined, deletedToo);
  if (!c) return false;
  run.steps.push(`${name}(${c.id})`);
  await send(c.id);
  return true;
}

/**
 * Add, move and remove, where the document settles the outcome: an active note not yet in the
 * collection (add); in the source and not in the target (move); in the collection (remove). Then
 * the note is read: its collection_ids show the change, and its version (a membership change's
 * effect on it is not shown) is learnt.
 */
async function membership(run: Runner, op: OpOf<'addNote' | 'removeNote' | 'moveNote'>): Promise<boolean> {
  // The note first, then collections that make the change determined (picked, not hit by chance).
  // `any` (the explorer) sends to a note whose links the run no longer knows too (trashed after a
  // membership change, deleted): any collection of the sequence stands in for one that holds it.
  const unknown = (m: KnownNote) => op.any === true && (m.links === undefined || m.deleted !== undefined);
  const n = pickNote(
    run,
    op.note,
    (m) =>
      unknown(m) ||
      (op.any === true && (op.kind === 'addNote' || (m.links?.size ?? 0) > 0)) ||
      (m.trashed?.value === false && m.links !== undefined && (op.kind === 'addNote' || m.links.size > 0)),
    op.any === true,
  );
  if (!n) return false;
  const guess = unknown(n);
  const holds = (c: { id: string }) => n.links?.has(c.id) === true;
  if (op.kind === 'moveNote') {
    const from = pickCollection(run, op.from, (c) => guess || holds(c));
    const to = from && pickCollection(run, op.to, (c) => c.id !== from.id && (guess || !holds(c)));
    if (!from || !to || (op.any !== true && !moveDetermined(n, from, to))) return false;
    run.steps.push(`MoveNote(${n.id}: ${from.id} -> ${to.id})`);
    await run.api.moveNote(from.id, n.id, { target_collection_id: to.id });
  } else {
    const add = op.kind === 'addNote';
    // A repeat, or a note in a state the document does not settle, is sent without the outcome determined.
    const loose = op.again === true || op.any === true;
    const c = pickCollection(run, op.coll, (k) => guess || (holds(k) !== add) !== (op.again === true), op.any === true);
    if (!c || (!loose && !(add ? addDetermined : removeDetermined)(n, c))) return false;
    run.steps.push(`${add ? 'AddNote' : 'RemoveNote'}(${n.id}, ${c.id})`);
    await (add ? run.api.addToCollection(c.id, n.id) : run.api.removeFromCollection(c.id, n.id));
  }
  await run.api.getNote(n.id);
  return true;
}

function boundOf(bound: OpOf<'searchNotes'>['bound'], since: string) {
  return bound === 'created-before-run'
    ? { created_before: since }
    : bound === 'updated-after-run'
      ? { updated_after: since }
      : {};
}

/** POST /v2/notes/search for a word of one of the sequence's notes (or one they all hold), and the snapshot's next page. */
async function searchNotes(run: Runner, op: OpOf<'searchNotes'>): Promise<boolean> {
  const n = pickNote(run, op.note);
  if (!n) return false;
  const word = op.absent ? run.word() : op.common ? 'Model' : (n.content?.value.split(/\s+/)[1] ?? 'model');
  const coll =
    op.coll === undefined || !run.declares('names.notes_search.collections') ? undefined : pickCollection(run, op.coll);
  run.steps.push(
    `SearchNotes(${word}${op.bound === 'none' ? '' : `, ${op.bound}`}${coll ? `, in ${coll.id}` : ''}` +
      `${filtersText(op.contains)}, ${op.pageSize} a page)`,
  );
  const contains = containsOf(run, 'notes_search', op.contains);
  const body = {
    query: word,
    ...boundOf(op.bound, run.since),
    ...(coll ? { collections: [coll.id] } : {}),
    ...contains,
  };
  const x = await run.api.searchNotes({ limit: op.pageSize }, body);
  const page = x.json as { has_next_page?: unknown; snapshot_id?: unknown } | undefined;
  if (x.status === 200 && page?.has_next_page === true && typeof page.snapshot_id === 'string')
    await run.api.searchNotes({ limit: op.pageSize, offset: op.pageSize, snapshot_id: page.snapshot_id }, body);
  return true;
}

/** POST /v2/collections/search for a word of a collection (everything, without a declared query name). */
async function searchCollections(run: Runner, op: OpOf<'searchCollections'>): Promise<boolean> {
  const c = pickCollection(run, op.coll);
  if (!c) return false;
  const word = (c.title?.value ?? '').split(/\s+/)[2] ?? 'model';
  const before = op.before && run.declares('names.collections_search.created_before');
  // The body's names are not shown: a name the target does not know would be refused (the parameter-names check's).
  const query = run.declares('names.collections_search.query') ? word : undefined;
  run.steps.push(`SearchCollections(${query ?? 'everything'}${before ? ', created before the run' : ''})`);
  await run.api.searchCollections({ query, ...(before ? { created_before: run.since } : {}) });
  return true;
}

/** The contains filters sent true, those the profile names (a name it does not would be refused). */
function containsOf(
  run: Runner,
  where: 'notes_list' | 'notes_search',
  kinds: readonly ContainsKind[] | undefined,
): Partial<Record<ContainsKind, true>> {
  const sendable = (kinds ?? []).filter((k) => run.declares(`names.${where}.contains_${k}`));
  return Object.fromEntries(sendable.map((k) => [k, true]));
}

const filtersText = (kinds: readonly ContainsKind[] | undefined) =>
  kinds && kinds.length > 0 ? `, containing ${kinds.join(' or ')}` : '';

/** Pages at most a walk takes: a run shares its request budget. */
const MAX_PAGES = 4;

/**
 * GET /v2/notes by one of the four bounds at the sequence's start or one of its collections, a few
 * a page or the largest page, in either order, along next_page where the profile names the cursor.
 */
async function listNotes(run: Runner, op: OpOf<'listNotes'>): Promise<boolean> {
  const coll = pickCollection(run, op.coll);
  const filter =
    op.filter === 'collection' && (!coll || !run.declares('names.notes_list.collection'))
      ? 'created-after-run'
      : op.filter;
  const query = {
    limit: op.pageSize,
    ...(filter === 'collection'
      ? { collection: coll!.id }
      : { [filter.replace('-run', '').replace('-', '_')]: run.since }),
    ...(op.order === 'default' ? {} : { order_by: op.order }),
    ...containsOf(run, 'notes_list', op.contains),
  };
  run.steps.push(
    `ListNotes(${op.pageSize} a page, ${op.order} order, ${filter === 'collection' ? `in ${coll!.id}` : filter}` +
      `${filtersText(op.contains)})`,
  );
  let x = await run.api.listNotes(query);
  if (await fillPastLargestPage(run, op.pageSize, filter, x)) x = await run.api.listNotes(query);
  for (let pages = 1; pages < MAX_PAGES && x.status === 200; pages++) {
    const next = (x.json as { next_page?: unknown }).next_page;
    if (typeof next !== 'string' || !run.declares('names.notes_list.cursor')) break;
    x = await run.api.listNotes({ ...query, cursor: next });
  }
  return true;
}

/**
 * A walk of the largest page over the sequence's notes: where the budget allows, the notes it lacks
 * to pass that page are made, so the walk follows next_page past a full page of 100. Plain notes,
 * created now: they fall in the created-after and updated-after windows.
 */
async function fillPastLargestPage(run: Runner, pageSize: number, filter: string, x: Exchange): Promise<boolean> {
  const max = LIMITS.notesListLimit.max;
  const shown = (x.json as { results?: unknown } | undefined)?.results;
  if (pageSize !== max || (filter !== 'created-after-run' && filter !== 'updated-after-run')) return false;
  if (!run.fillers || !run.declares('names.notes_list.cursor') || !Array.isArray(shown) || shown.length >= max)
    return false;
  const lacking = max + 1 - shown.length;
  if (run.fillers.made + lacking > run.fillers.max) return false;
  let made = 0;
  for (; made < lacking; made++) {
    const filler = await run.api.createNote({ content: run.content(`Filler ${run.word()}`) });
    // A refusal (a quota, say) ends the filling: the walk keeps to one page.
    if (filler.status !== 200) break;
    run.fillers.made++;
  }
  if (made > 0) run.steps.push(`(${made} notes made to pass a page of ${max})`);
  return made > 0;
}

/** GET /v2/collections, bounded at the sequence's start where the profile names the bound, along next_page. */
async function listCollections(run: Runner, op: OpOf<'listCollections'>): Promise<boolean> {
  const bound = (f: string) => f.replace('-run', '').replace('-', '_');
  const named = (b: string) => run.declares(`names.collections_list.${b}`);
  const asked = bound(op.filter);
  const used = named(asked) ? asked : named('created_after') ? 'created_after' : undefined;
  const query = {
    limit: op.pageSize,
    ...(used ? { [used]: run.since } : {}),
    ...(op.order === 'default' ? {} : { order_by: op.order }),
  };
  run.steps.push(`ListCollections(${op.pageSize} a page, ${op.order} order${used ? `, ${used} the run's start` : ''})`);
  let x = await run.api.listCollections(query);
  const total = (x.json as { total?: unknown } | undefined)?.total;
  // A page of exactly the total: it ends at the last collection (unless one was made meanwhile).
  if (op.exact && typeof total === 'number' && total > 0 && total <= LIMITS.collectionsListLimit.max)
    x = await run.api.listCollections({ ...query, limit: total });
  for (let pages = 1; pages < MAX_PAGES && x.status === 200; pages++) {
    const next = (x.json as { next_page?: unknown }).next_page;
    if (typeof next !== 'string' || !run.declares('names.collections_list.cursor')) break;
    x = await run.api.listCollections({ ...query, cursor: next });
  }
  return true;
}
