import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fakeCommand } from '../../cli/fake-command.js';
import { ManualClock } from '../../fake/clock.js';
import { DataFileError } from '../../fake/data/errors.js';
import { generateSeed } from '../../fake/data/generator.js';
import type { SeedData } from '../../fake/data/seed-file.js';
import { createFake, type Fake } from '../../fake/index.js';
import { featuresOf } from '../../fake/service/content.js';
import { FEATURE } from '../../fake/store/records.js';
import { createSchemaRegistry } from '../../spec/schemas.js';
import { UsageError } from '../../suites/harness/errors.js';
import { T0 } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'fake-data-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const start = (options: Parameters<typeof createFake>[0]) =>
  createFake({ listen: false, seed: 11, clock: new ManualClock(T0), ...options });
const call = (fake: Fake, method: string, url: string, body?: unknown, token = fake.tokens[0]!) =>
  fake.handle({
    method,
    url,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
const dataError = async (options: Parameters<typeof createFake>[0]) => {
  const error = await start(options).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DataFileError);
  const message = (error as Error).message;
  expect(message).not.toContain('\n');
  return message;
};

describe('--data: collections and notes from a JSON or YAML file', () => {
  it('creates them for the first user through the create operations, linking notes by collection_titles', async () => {
    const yaml = file(
      'seed.yaml',
      [
        'collections:',
        '  - { title: Work, description: things for work }',
        '  - { title: Home, created_at: "2024-01-01T00:00:00Z" }',
        'notes:',
        '  - content: "Plan\\n- [ ] write it"',
        '    collection_titles: [work, HOME, nowhere]',
        '  - { content: "Old", created_at: "0001-06-15T12:00:00Z" }',
      ].join('\n'),
    );
    for (const data of [
      yaml,
      file(
        'seed.json',
        JSON.stringify({
          collections: [{ title: 'Work' }, { title: 'Home' }],
          notes: [{ content: 'Plan', collection_titles: ['work', 'HOME'] }, { content: 'Old' }],
        }),
      ),
    ]) {
      const fake = await start({ users: ['first-token', 'second-token'], data });
      expect(fake.data).toEqual({ restored: false, collections: 2, notes: 2 });
      const owner = fake.store.usersByToken.get('first-token')!;
      const notes = [...fake.store.notes.values()];
      expect(notes.every((n) => n.ownerId === owner.id)).toBe(true);
      expect(notes[0]!.collectionIds.size).toBe(2);
      expect(call(fake, 'GET', '/v2/notes').json).toMatchObject({ total: 2 });
      expect(call(fake, 'GET', '/v2/notes', undefined, 'second-token').json).toMatchObject({ total: 0 });
    }
    const fake = await start({ users: ['first-token'], data: yaml });
    expect([...fake.store.notes.values()][1]!.createdAt).toBe(Date.parse('0001-06-15T12:00:00Z'));
  });

  it('refuses a bad file with one line naming the file and the entry', async () => {
    expect(await dataError({ data: join(dir, 'missing.json') })).toMatch(
      /missing\.json: cannot read the data file \(ENOENT\)/,
    );
    expect(await dataError({ data: file('syntax.json', '{"notes": [') })).toMatch(/syntax\.json: invalid JSON/);
    expect(await dataError({ data: file('syntax.yaml', 'notes: [ {content: ') })).toMatch(
      /syntax\.yaml:1:\d+: invalid YAML/,
    );
    expect(await dataError({ data: file('list.json', '[]') })).toMatch(
      /expected an object with "collections" and "notes"/,
    );
    expect(await dataError({ data: file('extra.json', '{"notes": [], "tags": []}') })).toMatch(/unknown field "tags"/);
    expect(await dataError({ data: file('notarray.json', '{"notes": {}}') })).toMatch(/"notes" must be an array/);
    expect(await dataError({ data: file('typo.json', '{"notes": [{"content": "a"}, {"conten": "b"}]}') })).toMatch(
      /typo\.json: notes\[1\]: unknown field "conten"/,
    );
    expect(
      await dataError({ data: file('proto.json', '{"notes": [{"content": "a", "__proto__": {"x": 1}}]}') }),
    ).toMatch(/notes\[0\]: unknown field "__proto__"/);
    expect(
      await dataError({
        data: file('future.json', '{"notes": [{"content": "a", "created_at": "2999-01-01T00:00:00Z"}]}'),
      }),
    ).toMatch(/future\.json: notes\[0\]: created_at must not be in the future/);
    expect(await dataError({ data: file('badcoll.json', '{"collections": [{"title": 5}]}') })).toMatch(
      /collections\[0\]: title must be a string/,
    );
  });
});

describe('--generate: realistic data from the openapi.yaml request schemas', () => {
  const collect = (count: number, seed: number) => {
    const chunks: SeedData[] = [];
    generateSeed(count, seed, T0, (chunk) => chunks.push(chunk));
    return { collections: chunks.flatMap((c) => c.collections ?? []), notes: chunks.flatMap((c) => c.notes ?? []) };
  };

  it('is deterministic by seed, valid by the schemas, and has tasks, images, file links and spread timestamps', () => {
    const data = collect(1_500, 5);
    expect(collect(1_500, 5)).toEqual(data);
    expect(collect(1_500, 6).notes).not.toEqual(data.notes);
    expect(data.notes).toHaveLength(1_500);
    expect(data.collections).toHaveLength(30);
    const schemas = createSchemaRegistry();
    for (const body of data.notes) expect(schemas.validate('NoteCreateRequest', body)).toEqual([]);
    for (const body of data.collections) expect(schemas.validate('CollectionCreateRequest', body)).toEqual([]);
    const features = data.notes.map((n) => featuresOf((n as { content: string }).content, []));
    for (const bit of [FEATURE.openTask, FEATURE.task, FEATURE.image, FEATURE.file]) {
      expect(features.filter((f) => f & bit).length, `feature ${bit}`).toBeGreaterThan(50);
    }
    const stamps = data.notes
      .flatMap((n) => [(n as { created_at?: string }).created_at, (n as { updated_at?: string }).updated_at])
      .filter((t) => t !== undefined);
    expect(new Set(stamps.map((t) => t.slice(0, 4))).size).toBeGreaterThanOrEqual(3);
    expect(stamps.every((t) => Date.parse(t) <= T0)).toBe(true);
    const linked = data.notes.filter(
      (n) => ((n as { collection_titles?: string[] }).collection_titles ?? []).length > 0,
    );
    expect(linked.length).toBeGreaterThan(500);
  });

  it('seeds the first user (or two users made for it) through the API rules', async () => {
    const fake = await start({ generate: 300 });
    expect(fake.tokens).toHaveLength(2);
    expect(fake.data).toEqual({ restored: false, collections: 6, notes: 300 });
    const list = call(fake, 'GET', '/v2/notes?limit=100').json as { total: number };
    expect(list.total).toBe(300);
    const linked = [...fake.store.notes.values()].filter((n) => n.collectionIds.size > 0).length;
    expect(linked).toBeGreaterThan(100);
    const again = await start({ generate: 300 });
    expect([...again.store.notes.values()].map((n) => [n.id, n.content, n.createdAt])).toEqual(
      [...fake.store.notes.values()].map((n) => [n.id, n.content, n.createdAt]),
    );
  });
});

describe('--state: data survives restarts', () => {
  /** Everything the state must keep, by id. */
  const fingerprint = (fake: Fake) =>
    JSON.stringify([
      [...fake.store.users.values()].map((u) => [u.id, u.token, u.name, u.quota]),
      [...fake.store.notes.values()].map((n) => [
        n.id,
        n.ownerId,
        n.content,
        n.title,
        n.features,
        n.createdAt,
        n.originalCreatedAt,
        n.updatedAt,
        n.version,
        n.trashedAt,
        [...n.collectionIds],
        n.audioRecordingIds,
        n.attachments,
      ]),
      [...fake.store.collections.values()].map((c) => [
        c.id,
        c.ownerId,
        c.title,
        c.description,
        c.createdAt,
        c.updatedAt,
        c.trashedAt,
        [...c.noteIds],
      ]),
      [...fake.store.grants].map(([id, levels]) => [id, [...levels]]),
    ]);

  it('loads at start and saves on close(): versions, timestamps, trash, memberships, grants', async () => {
    const state = join(dir, 'state.json');
    const fake = await start({ users: ['first-token', 'second-token'], generate: 120, state });
    const [a, b, c] = [...fake.store.notes.values()];
    const coll = [...fake.store.collections.values()][0]!;
    expect(call(fake, 'PATCH', `/v2/notes/${a!.id}`, { content: 'edited\ntext', version: a!.version }).status).toBe(
      200,
    );
    expect(call(fake, 'PATCH', `/v2/notes/${b!.id}/created-at`, { created_at: '1999-01-01T00:00:00Z' }).status).toBe(
      200,
    );
    expect(call(fake, 'POST', `/v2/notes/${c!.id}/trash`).status).toBe(200);
    expect(call(fake, 'PUT', `/v2/collections/${coll.id}/notes/${a!.id}`).status).toBe(200);
    fake.fixtures.grant({ resource: 'collection', id: coll.id, token: 'second-token', level: 'contribute' });
    fake.fixtures.addAttachment(b!.id, { attachment_kind: 'pdf' });
    fake.fixtures.setQuota(fake.store.usersByToken.get('second-token')!.id, { limit: 7 });
    const before = fingerprint(fake);
    await fake.close();

    const restored = await start({ users: ['first-token'], generate: 120, state });
    expect(restored.data).toEqual({ restored: true, collections: 0, notes: 0 });
    expect(JSON.parse(fingerprint(restored))).toEqual(JSON.parse(before));
    // The restored store works as before: title lookups, search and the collection grant.
    expect(
      call(
        restored,
        'POST',
        '/v2/notes',
        { content: 'linked', collection_titles: [coll.title.toUpperCase()] },
        'second-token',
      ).json,
    ).toMatchObject({ collection_ids: [coll.id] });
    expect(call(restored, 'POST', '/v2/notes/search', { query: 'edited' }).json).toMatchObject({ total: 1 });
    // One fake per state file: a second one refuses to start until the first has closed.
    expect(await dataError({ state })).toMatch(/state\.json: already in use by another fake/);
    await restored.close();
    const withoutUsers = await start({ state });
    await withoutUsers.close();
    expect([...withoutUsers.tokens].sort()).toEqual(['first-token', 'second-token']);
    expect(JSON.parse(readFileSync(state, 'utf8')).format).toBe('notes-conformance-fake-state');
  });

  it('refuses a state file it cannot use, in one line', async () => {
    expect(await dataError({ state: file('garbage.json', 'not json') })).toMatch(
      /garbage\.json: not a readable state file/,
    );
    expect(await dataError({ state: file('other.json', '{"format": "x"}') })).toMatch(/not a state file of this fake/);
    const broken = {
      format: 'notes-conformance-fake-state',
      version: 1,
      users: [],
      collections: [],
      grants: [],
      notes: [
        {
          id: '5c2d8e4f-1a3b-4c5d-8e6f-9a0b1c2d3e4f',
          owner_id: '0b9e1c7a-4a1d-4f0e-9c2b-7d3e5f6a8b92',
          content: 'x',
          created_at: '2020-01-01T00:00:00Z',
          updated_at: '2020-01-01T00:00:00Z',
          version: 1,
          trashed_at: null,
          collection_ids: [],
          audio_recording_ids: [],
          attachments: [],
        },
      ],
    };
    expect(await dataError({ state: file('broken.json', JSON.stringify(broken)) })).toMatch(
      /broken\.json: notes\[0\]\.owner_id: no such user in the file/,
    );
    expect(await dataError({ state: join(dir, 'no-such-dir', 'state.json') })).toMatch(/cannot save the state there/);
  });
});

describe('fake command data flags', () => {
  const run = (argv: string[]) =>
    fakeCommand(['--port', '0', ...argv], { out: () => {}, untilStopped: async () => {} });

  it('turn a bad file or value into a one-line usage error (exit 2)', async () => {
    for (const [argv, pattern] of [
      [['--data', file('cli-bad.json', '{"notes": [{}]}')], /cli-bad\.json: notes\[0\]: content is required/],
      [['--generate', 'many'], /--generate must be an integer/],
      [['--state', file('cli-state.json', '[]')], /cli-state\.json: the file: expected an object/],
    ] as const) {
      const error = await run([...argv]).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, argv.join(' ')).toBeInstanceOf(UsageError);
      expect((error as Error).message).toMatch(pattern);
      expect((error as Error).message).not.toContain('\n');
    }
  });

  it('print what was loaded and save the state when stopped', async () => {
    const state = join(dir, 'cli-state-ok.json');
    const lines: string[] = [];
    expect(
      await fakeCommand(['--port', '0', '--seed', '4', '--generate', '50', '--state', state], {
        out: (l) => lines.push(l),
        untilStopped: async () => {},
      }),
    ).toBe(0);
    expect(lines.find((l) => l.startsWith('data:'))).toMatch(
      /50 notes and 3 collections created for the first token; kept in .*cli-state-ok\.json \(journal /,
    );
    expect(JSON.parse(readFileSync(state, 'utf8')).notes).toHaveLength(50);
  });
});
