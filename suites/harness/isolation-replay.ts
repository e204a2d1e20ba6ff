import { randomUUID } from 'node:crypto';
import type { Api } from '../../kit/core/api.js';
import type { Exchange } from '../../kit/core/client.js';
import type { KitContext } from '../../kit/core/context.js';
import type { Oracle } from '../../kit/core/oracle/oracle.js';

/**
 * Isolation replay: identifiers the first user's checks learned (notes, collections, list cursors,
 * search snapshots) are sent again under the second user's token, on each operation that takes
 * them. The oracle judges the answers as it judges every answer (a stranger's success, a refusal
 * that shows the text, items of the first user in the second's pages) and, through the owner's
 * reading afterwards, that nothing changed. Where the profile declares one status for "missing"
 * and "forbidden" (a target that hides what exists), a stranger's answer must also equal the
 * answer for an unknown id of the same shape.
 */

/**
 * How much of the run's request budget the replay may spend: against a remote target, a sample, and
 * no note or collection unless the profile makes the replay judge more than suites/auth/scope.check.ts
 * does (its checks send the same probes on a note and a collection of their own, and related.check.ts
 * the related-notes one; repeating them on one more of each was 11 requests of a remote run,
 * docs/running.md "Cost"): the comparison with an unknown id where missing and forbidden share a status.
 */
function allowance(
  ctx: KitContext,
  hidesExistence: boolean,
): { notes: number; collections: number; cursors: number; snapshots: number } {
  if (ctx.embedded) return { notes: 6, collections: 4, cursors: 2, snapshots: 2 };
  const sample = hidesExistence ? 1 : 0;
  return { notes: sample, collections: sample, cursors: 1, snapshots: 1 };
}

type Probe = (api: Api, id: string) => Promise<Exchange>;

const NOTE_PROBES: Record<string, Probe> = {
  getNote: (api, id) => api.getNote(id),
  getRelatedNotes: (api, id) => api.relatedNotes(id),
  updateNote: (api, id) => api.updateNote(id, { content: 'isolation probe\nnot yours', version: 1 }),
  setNoteCreatedAt: (api, id) => api.setCreatedAt(id, { created_at: '2020-01-01T00:00:00Z' }),
  trashNote: (api, id) => api.trashNote(id),
  deleteNote: (api, id) => api.deleteNote(id),
};
const COLLECTION_PROBES: Record<string, Probe> = {
  getCollection: (api, id) => api.getCollection(id),
  updateCollection: (api, id) => api.updateCollection(id, { title: 'isolation probe' }),
  deleteCollection: (api, id) => api.deleteCollection(id),
};

export class IsolationReplay {
  private readonly replayed = new Set<string>();
  private readonly unknownAnswer = new Map<string, number>();
  private readonly spent = { notes: 0, collections: 0, cursors: 0, snapshots: 0 };

  constructor(
    private readonly oracle: Oracle,
    private readonly ctx: KitContext,
  ) {}

  /** Replays what the primary user's checks learned and is still alive (called before a file's cleanup). */
  async run(primary: Api, secondary: Api): Promise<void> {
    const { world } = this.oracle;
    const hidesExistence =
      this.ctx.profileDeclared &&
      this.ctx.profile.statuses?.not_found !== undefined &&
      this.ctx.profile.statuses.not_found === this.ctx.profile.statuses.forbidden;
    const limit = allowance(this.ctx, hidesExistence);
    for (const n of [...world.notes.values()]) {
      if (this.spent.notes >= limit.notes) break;
      if (n.owner !== 'primary' || n.deleted || this.replayed.has(n.id)) continue;
      this.replayed.add(n.id);
      this.spent.notes++;
      for (const [op, probe] of Object.entries(NOTE_PROBES))
        await this.probe(op, probe, secondary, n.id, hidesExistence, 'auth.scope.notes-isolated');
      await primary.getNote(n.id);
    }
    for (const c of [...world.collections.values()]) {
      if (this.spent.collections >= limit.collections) break;
      if (c.owner !== 'primary' || c.deleted || this.replayed.has(c.id)) continue;
      this.replayed.add(c.id);
      this.spent.collections++;
      for (const [op, probe] of Object.entries(COLLECTION_PROBES))
        await this.probe(op, probe, secondary, c.id, hidesExistence, 'auth.scope.collections-isolated');
      await primary.getCollection(c.id);
    }
    await this.crossUser(primary, secondary);
    for (const { cursor, input } of this.oracle.learned.cursors.splice(0)) {
      if (this.spent.cursors >= limit.cursors) break;
      if (this.ctx.profile.names?.notes_list?.cursor === undefined || !this.ctx.profileDeclared) break;
      this.spent.cursors++;
      await secondary.listNotes({ ...input, cursor });
    }
    for (const { snapshotId, body, offset } of this.oracle.learned.snapshots.splice(0)) {
      if (this.spent.snapshots >= limit.snapshots) break;
      this.spent.snapshots++;
      await secondary.searchNotes({ offset, snapshot_id: snapshotId }, body);
    }
  }

  private crossed = false;

  /**
   * Once a run, where its creates are not capped (the embedded fake; a capped run's plan counts
   * every note): the second user names the first user's note and collection in its own writes:
   * creates linking the collection by id and by title (both ignored, and the owner's note_count
   * unchanged), creates with the note's and the collection's ids (409, and nothing of the owner's
   * changes), and an add of the owner's note to a collection of its own (refused).
   */
  private async crossUser(primary: Api, secondary: Api): Promise<void> {
    if (this.crossed || this.ctx.createCaps) return;
    const { world } = this.oracle;
    const alive = <T extends { owner: string; deleted?: unknown }>(items: Iterable<T>) =>
      [...items].find((r) => r.owner === 'primary' && !r.deleted);
    const n = alive(world.notes.values());
    const owned = [...world.collections.values()].filter((r) => r.owner === 'primary' && !r.deleted && r.title);
    // Two of them where there are: a note_count one too high then tells which create linked it.
    const [c, d = c] = owned;
    if (!n || !c || !d) return;
    this.crossed = true;
    const own = await secondary.createCollection({ title: `isolation ${randomUUID().slice(0, 8)}` });
    // One create names a collection by id, another one by title: each is its own rule.
    await secondary.createNote({ content: 'isolation probe\nby id', collection_ids: [c.id] });
    await secondary.createNote({ content: 'isolation probe\nby title', collection_titles: [d.title!.value] });
    if (d !== c) await primary.getCollection(d.id);
    await secondary.createNote({ id: n.id, content: 'isolation probe\nsame id' });
    await secondary.createCollection({ id: c.id, title: 'isolation probe' });
    const ownId = (own.json as { id?: unknown } | undefined)?.id;
    if (own.status === 200 && typeof ownId === 'string') await secondary.addToCollection(ownId, n.id);
    await primary.getCollection(c.id);
    await primary.getNote(n.id);
  }

  /** One operation on the first user's resource as the second user, and the same on an unknown id. */
  private async probe(op: string, probe: Probe, api: Api, id: string, compare: boolean, rule: string): Promise<void> {
    const x = await probe(api, id);
    if (!compare) return;
    let unknown = this.unknownAnswer.get(op);
    if (unknown === undefined) {
      unknown = (await probe(api, randomUUID())).status;
      this.unknownAnswer.set(op, unknown);
    }
    this.oracle.judgements.that(
      rule,
      x.status === unknown,
      () =>
        `${x.method} ${x.path} as the second user answered ${x.status}, an unknown id answers ${unknown}:` +
        ' the profile declares one status for missing and forbidden, so the answer tells that the resource exists',
      x,
    );
  }
}
