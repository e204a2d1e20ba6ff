import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Coverage } from '../../kit/core/explore/coverage.js';
import { allTargets, loadSpace } from '../../kit/core/explore/space.js';
import type { Observation } from '../../kit/core/oracle/observation.js';
import { OPERATIONS } from '../../spec/operations.js';
import { specFile } from '../../spec/paths.js';

const space = loadSpace();

describe('the behaviour space (spec/behaviour-space.yaml)', () => {
  it('names only operations of openapi.yaml', () => {
    const named = [
      ...space.operations.note,
      ...space.operations.collection,
      ...space.views.note.writes,
      ...space.views.note.shown_by,
      ...space.views.collection.writes,
      ...space.views.collection.shown_by,
      ...Object.keys(space.inputs),
      ...Object.keys(space.paging),
      ...space.repeats,
    ];
    // A view kept to a collection names its operation before the `?`.
    expect(named.filter((op) => !(op.split('?')[0]! in OPERATIONS))).toEqual([]);
  });

  it('derives targets with unique ids, and every exclusion still leaves something out', () => {
    const ids = allTargets().map((t) => t.id);
    expect(new Set(ids).size).toBe(ids.length);
    const raw = allTargets({ ...space, excluded: [] }).map((t) => t.id);
    for (const e of space.excluded ?? []) {
      const re = new RegExp(`^${e.targets.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^:]*')}$`);
      expect(
        raw.some((id) => re.test(id)),
        e.targets,
      ).toBe(true);
      expect(
        ids.some((id) => re.test(id)),
        e.targets,
      ).toBe(false);
    }
  });

  it('names only profile fields the profile schema knows as what a target needs', () => {
    const schema = readFileSync(specFile('profile.schema.json'), 'utf8');
    const needs = new Set(allTargets().flatMap((t) => t.needs));
    for (const need of needs) expect(schema, need).toContain(`"${need.split('.').at(-1)}"`);
  });
});

/** An observation as the oracle hands it on: only what coverage reads. */
function seen(op: string, status: number, json: unknown, extra: Partial<Observation> = {}): Observation {
  return {
    op,
    actor: 'primary',
    ownToken: true,
    method: 'POST',
    path: '/',
    params: {},
    x: { status, json } as Observation['x'],
    ...extra,
  } as Observation;
}

describe('behaviour coverage from answers', () => {
  it('follows a note through trash, restore and a backdate, and marks the update in that state', () => {
    const c = new Coverage();
    const id = 'n1';
    const onNote = { params: { note_id: id } };
    c.observe(seen('createNote', 200, { id, collection_ids: [] }));
    c.observe(seen('trashNote', 200, {}, onNote));
    c.observe(seen('restoreNote', 200, {}, onNote));
    c.observe(seen('setNoteCreatedAt', 200, { id, collection_ids: ['c1', 'c2'] }, onNote));
    expect(c.note(id)).toEqual({
      lifecycle: 'restored',
      backdated: 'once',
      updated: 'never',
      collections: 'several',
      moved: 'never',
    });
    c.observe(seen('updateNote', 409, {}, { ...onNote, body: { content: 'x', version: 9 } }));
    expect(c.covered).toContain('state:updateNote:note:restored:backdated=once');
    expect(c.covered).toContain('state:updateNote:note:restored:collections=several');
    // A refusal moves nothing; a read after the backdate is a view after that write.
    expect(c.note(id)?.updated).toBe('never');
    c.observe(seen('getNote', 200, { id, collection_ids: ['c1', 'c2'] }, onNote));
    expect(c.covered).toContain('after-write:note:setNoteCreatedAt>getNote');
  });

  it('marks a page that ends exactly at the last item, and a repeated add', () => {
    const c = new Coverage();
    c.observe(seen('listNotes', 200, { results: [{ id: 'a' }, { id: 'b' }], total: 2 }, { input: { limit: 2 } }));
    expect(c.covered).toContain('paging:listNotes:exact-last');
    const add = { params: { collection_id: 'c', note_id: 'n' } };
    c.observe(seen('addNoteToCollection', 200, {}, add));
    expect(c.covered).not.toContain('repeats:addNoteToCollection');
    c.observe(seen('addNoteToCollection', 200, {}, add));
    expect(c.covered).toContain('repeats:addNoteToCollection');
  });

  it("marks a list bound only where one of the caller's resources has its two times on either side of it", () => {
    const c = new Coverage();
    const times = { created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-03T00:00:00Z' };
    c.observe(seen('createNote', 200, { id: 'n', collection_ids: [], ...times }));
    const list = (at: string) => seen('listNotes', 200, { results: [] }, { input: { updated_after: at } });
    c.observe(list('2026-01-04T00:00:00Z'));
    c.observe(
      seen('listNotes', 200, { results: [] }, { input: { updated_after: '2026-01-02T00:00:00Z' }, actor: 'secondary' }),
    );
    expect(c.covered).not.toContain('bounds:listNotes:updated_after:split');
    c.observe(list('2026-01-02T00:00:00Z'));
    expect(c.covered).toContain('bounds:listNotes:updated_after:split');
    expect(c.covered).not.toContain('bounds:listCollections:updated_after:split');
  });

  it('marks one collection named both by id and by title, not two different ones', () => {
    const c = new Coverage();
    c.observe(seen('createCollection', 200, { id: 'c1', title: 'One' }));
    c.observe(seen('createCollection', 200, { id: 'c2', title: 'Two' }));
    const create = (titles: string[]) =>
      seen(
        'createNote',
        200,
        { id: 'n', collection_ids: ['c1'] },
        { body: { collection_ids: ['c1'], collection_titles: titles } },
      );
    c.observe(create(['two']));
    expect(c.covered).toContain('inputs:createNote:collection_ids+collection_titles');
    expect(c.covered).not.toContain('inputs:createNote:collection_ids+collection_titles=same');
    c.observe(create(['ONE']));
    expect(c.covered).toContain('inputs:createNote:collection_ids+collection_titles=same');
  });
});
