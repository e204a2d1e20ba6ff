import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../fake/clock.js';
import { DataFileError } from '../../fake/data/errors.js';
import { createFake, type Fake, type FakeResponse } from '../../fake/index.js';
import { T0 } from './helpers.js';

const root = mkdtempSync(join(tmpdir(), 'fake-durable-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let dirs = 0;
const freshDir = () => {
  const dir = join(root, `d${dirs++}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir);
  return dir;
};
const start = (state: string, options: Parameters<typeof createFake>[0] = {}) =>
  createFake({ listen: false, seed: 5, clock: new ManualClock(T0), state, report: () => {}, ...options });
const call = (fake: Fake, method: string, url: string, body?: unknown, token = fake.tokens[0]!) =>
  fake.handle({
    method,
    url,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
/** What is on disk at this instant, in another directory: exactly what a kill -9 now would leave. */
const crashImage = (state: string) => {
  const dir = freshDir();
  const copy = join(dir, 'state.json');
  copyFileSync(state, copy);
  if (existsSync(`${state}.journal`)) copyFileSync(`${state}.journal`, `${copy}.journal`);
  return copy;
};
/** The user-visible state: every note and collection as a client reads it, plus users, quotas and grants. */
const picture = (fake: Fake) =>
  JSON.stringify({
    notes: [...fake.store.notes.values()]
      .map((n) => ({ ...n, seq: 0, collectionIds: [...n.collectionIds] }))
      .sort((a, b) => a.id.localeCompare(b.id)),
    collections: [...fake.store.collections.values()]
      .map((c) => ({ ...c, noteIds: [...c.noteIds] }))
      .sort((a, b) => a.id.localeCompare(b.id)),
    users: [...fake.store.users.values()].sort((a, b) => a.id.localeCompare(b.id)),
    grants: [...fake.store.grants].map(([id, levels]) => [id, [...levels]]).sort(),
  });
const startError = async (state: string) => {
  const error = await start(state).then(
    (fake) => fake.close().then(() => undefined),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DataFileError);
  expect((error as Error).message).not.toContain('\n');
  return (error as Error).message;
};

describe('--state: every answered change is on disk before the answer', () => {
  it('a crash image after each kind of write restores exactly what the clients saw', async () => {
    const state = join(freshDir(), 'state.json');
    const fake = await start(state, { users: ['first-token-1', 'second-token-2'], quota: { limit: 50 } });
    const images: Array<{ what: string; path: string; live: string }> = [];
    const check = (what: string) => images.push({ what, path: crashImage(state), live: picture(fake) });
    const [a, b, c] = ['one\nbody', 'two', 'three'].map(
      (content) => call(fake, 'POST', '/v2/notes', { content }).json as { id: string; version: number },
    );
    check('creates');
    const coll = call(fake, 'POST', '/v2/collections', { title: 'Box' }).json as { id: string };
    const other = call(fake, 'POST', '/v2/collections', { title: 'Other' }).json as { id: string };
    expect(call(fake, 'PUT', `/v2/collections/${coll.id}/notes/${a!.id}`).status).toBe(200);
    expect(call(fake, 'PUT', `/v2/collections/${coll.id}/notes/${b!.id}`).status).toBe(200);
    check('memberships');
    expect(call(fake, 'PATCH', `/v2/notes/${a!.id}`, { content: 'edited', version: a!.version }).status).toBe(200);
    expect(call(fake, 'POST', `/v2/notes/${c!.id}/trash`).status).toBe(200);
    check('update and trash (set on the record directly)');
    expect(call(fake, 'POST', `/v2/notes/${c!.id}/restore`).status).toBe(200);
    expect(
      call(fake, 'POST', `/v2/collections/${coll.id}/notes/${b!.id}/move`, { target_collection_id: other.id }).status,
    ).toBe(200);
    expect(call(fake, 'PATCH', `/v2/collections/${other.id}`, { description: 'kept' }).status).toBe(200);
    check('restore, move, description');
    fake.fixtures.grant({ resource: 'collection', id: coll.id, token: 'second-token-2', level: 'edit' });
    fake.fixtures.addAttachment(a!.id, { attachment_kind: 'pdf' });
    fake.fixtures.setQuota(fake.store.usersByToken.get('second-token-2')!.id, { limit: 3, used: 1 });
    check('fixtures in-process');
    const admin = { authorization: `Bearer ${fake.adminToken}`, 'content-type': 'application/json' };
    const made = fake.handle({
      method: 'POST',
      url: `${fake.config.fixturesPrefix}/users`,
      headers: admin,
      body: JSON.stringify({ name: 'third', token: 'third-token-3' }),
    });
    expect(made.status).toBe(200);
    fake.handle({
      method: 'POST',
      url: `${fake.config.fixturesPrefix}/notes/${b!.id}/audio-recordings`,
      headers: admin,
    });
    check('fixtures over the API');
    expect(call(fake, 'DELETE', `/v2/collections/${coll.id}`).status).toBe(200);
    expect(call(fake, 'DELETE', `/v2/notes/${c!.id}`).status).toBe(200);
    check('deletes (links dropped on the other side)');
    fake.fixtures.reset();
    call(fake, 'POST', '/v2/notes', { content: 'after the reset' });
    check('a reset, then a create');
    const final = picture(fake);
    await fake.close();
    expect(existsSync(`${state}.journal`)).toBe(false);
    expect(existsSync(`${state}.lock`)).toBe(false);
    images.push({ what: 'after close', path: state, live: final });
    for (const image of images) {
      const restored = await start(image.path);
      expect(restored.data.restored).toBe(true);
      expect(JSON.parse(picture(restored)), image.what).toEqual(JSON.parse(image.live));
      await restored.close();
    }
  });
});

describe('--state: one owner, no leftovers, private files', () => {
  it('refuses a second fake on a file in use, in one line, and takes over a lock whose process is gone', async () => {
    const state = join(freshDir(), 'state.json');
    const first = await start(state, { users: ['lock-token-1'] });
    expect(await startError(state)).toMatch(/state\.json: already in use by another fake/);
    await first.close();
    // A live process that is not a fake of ours holds it (pid 1 always exists).
    writeFileSync(`${state}.lock`, '1\n');
    expect(await startError(state)).toMatch(/state\.json: in use by another fake \(process 1\)/);
    // Left by a fake killed with -9: no such process any more.
    writeFileSync(`${state}.lock`, '999999999\n');
    const second = await start(state);
    expect(second.tokens).toEqual(['lock-token-1']);
    expect(readFileSync(`${state}.lock`, 'utf8').trim()).toBe(String(process.pid));
    await second.close();
  });

  it('removes the temporary files of a save killed midway, and writes every file 0600', async () => {
    const dir = freshDir();
    const state = join(dir, 'state.json');
    writeFileSync(`${state}.tmp`, '{"partial');
    writeFileSync(`${state}.4242.tmp`, '{"partial, older naming');
    writeFileSync(join(dir, 'unrelated.tmp'), 'not ours');
    const fake = await start(state, { users: ['mode-token-1'] });
    expect(readdirSync(dir).sort()).toEqual(['state.json', 'state.json.journal', 'state.json.lock', 'unrelated.tmp']);
    for (const name of ['state.json', 'state.json.journal', 'state.json.lock'])
      expect((statSync(join(dir, name)).mode & 0o777).toString(8), name).toBe('600');
    call(fake, 'POST', '/v2/notes', { content: 'x' });
    await fake.close();
    expect(readdirSync(dir).sort()).toEqual(['state.json', 'unrelated.tmp']);
    expect((statSync(state).mode & 0o777).toString(8)).toBe('600');
  });
});

describe('--state: the journal after a crash', () => {
  const crashed = async () => {
    const state = join(freshDir(), 'state.json');
    const fake = await start(state, { users: ['journal-token-1'] });
    const note = call(fake, 'POST', '/v2/notes', { content: 'kept' }).json as { id: string };
    const image = crashImage(state);
    await fake.close();
    return { image, note, state };
  };

  it('drops a torn last line (a write cut off before its answer) and says so', async () => {
    const { image, note } = await crashed();
    writeFileSync(`${image}.journal`, `${readFileSync(`${image}.journal`, 'utf8')}[["n",{"id":"torn`);
    const reports: string[] = [];
    const fake = await start(image, { report: (line) => reports.push(line) });
    expect([...fake.store.notes.keys()]).toEqual([note.id]);
    expect(reports.join('\n')).toMatch(/state\.json\.journal: dropped a torn last line/);
    await fake.close();
  });

  it('refuses a damaged line in the middle, naming the line', async () => {
    const { image } = await crashed();
    const lines = readFileSync(`${image}.journal`, 'utf8').split('\n');
    lines.splice(1, 0, '{not json');
    writeFileSync(`${image}.journal`, lines.join('\n'));
    expect(await startError(image)).toMatch(/state\.json\.journal: line 2: not valid JSON/);
    writeFileSync(`${image}.journal`, `${lines[0]}\n[["x", 1]]\n`);
    expect(await startError(image)).toMatch(/line 2: change 0: expected \[/);
  });

  it('ignores a journal left from before the last save (killed between rename and truncation)', async () => {
    const { state, note } = await crashed();
    const saved = JSON.parse(readFileSync(state, 'utf8')) as { generation: number };
    // The previous generation's journal (here ending with the note deleted): folded in already, so ignored.
    writeFileSync(`${state}.journal`, `{"journal_of":${saved.generation - 1}}\n[["-n","${note.id}"]]\n`);
    const fake = await start(state);
    expect([...fake.store.notes.keys()]).toEqual([note.id]);
    await fake.close();
  });
});

describe('--state: a save that fails', () => {
  it('is reported once, refuses writes with 503 (reads still served), and fails close()', async () => {
    const dir = freshDir();
    const state = join(dir, 'state.json');
    const reports: string[] = [];
    const fake = await start(state, { users: ['fail-token-1'], report: (line) => reports.push(line) });
    expect(call(fake, 'POST', '/v2/notes', { content: 'saved' }).status).toBe(200);
    rmSync(dir, { recursive: true, force: true });
    const lost = call(fake, 'POST', '/v2/notes', { content: 'not saved' });
    expect(lost.status).toBe(503);
    expect(lost.json).toMatchObject({ error: { type: 'state_not_saved' } });
    expect((lost.json as { error: { message: string } }).error.message).toMatch(
      /could not save the state to .*state\.json .*held in memory only/,
    );
    const next = call(fake, 'POST', '/v2/notes', { content: 'refused' });
    expect(next.status).toBe(503);
    expect((next.json as { error: { message: string } }).error.message).toMatch(/writes are refused until a save/);
    expect(call(fake, 'GET', '/v2/notes').status).toBe(200);
    expect(call(fake, 'POST', '/v2/notes/search', { query: 'saved' }).status).toBe(200);
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatch(/could not save the state .*writes are refused from now on/);
    await expect(fake.close()).rejects.toThrow(/could not save the state to .*state\.json/);
  });
});

describe('--state: every value is checked, with one line naming the field', () => {
  const user = {
    id: '0b9e1c7a-4a1d-4f0e-9c2b-7d3e5f6a8b91',
    token: 'valid-token-1',
    name: 'one',
    quota: null,
    rate_limit: null,
  };
  const note = {
    id: '5c2d8e4f-1a3b-4c5d-8e6f-9a0b1c2d3e4f',
    owner_id: '0b9e1c7a-4a1d-4f0e-9c2b-7d3e5f6a8b91',
    content: 'x',
    created_at: '2020-01-01T00:00:00Z',
    original_created_at: '2020-01-01T00:00:00Z',
    updated_at: '2020-01-01T00:00:00Z',
    version: 1,
    trashed_at: null,
    collection_ids: [],
    audio_recording_ids: [],
    attachments: [],
  };
  const file = (patch: { user?: object; note?: object; top?: object }) => {
    const path = join(freshDir(), 'state.json');
    const value = {
      format: 'notes-conformance-fake-state',
      version: 1,
      users: [{ ...user, ...patch.user }],
      collections: [],
      notes: [{ ...note, ...patch.note }],
      grants: [],
      ...patch.top,
    };
    writeFileSync(path, JSON.stringify(value));
    return path;
  };
  const cases: Array<[string, Parameters<typeof file>[0], RegExp]> = [
    [
      'rate limit as strings',
      { user: { rate_limit: { requests: '5', requestsPerSecond: 1, complexity: 1, complexityPerSecond: 1 } } },
      /users\[0\]\.rate_limit\.requests: expected a finite number > 0/,
    ],
    ['a rate limit missing a field', { user: { rate_limit: { requests: 5 } } }, /rate_limit\.requestsPerSecond/],
    ['quota used negative', { user: { quota: { plan: 'free', limit: 5, used: -1 } } }, /users\[0\]\.quota\.used/],
    ['a short token', { user: { token: 'short' } }, /users\[0\]\.token: expected 8 to 512 printable/],
    ['a name of the wrong type', { user: { name: 7 } }, /users\[0\]\.name: expected a string/],
    ['version 1e300', { note: { version: 1e300 } }, /notes\[0\]\.version: expected an integer from 0 to/],
    ['version 1.5', { note: { version: 1.5 } }, /notes\[0\]\.version/],
    ['attachments [null]', { note: { attachments: [null] } }, /notes\[0\]\.attachments\[0\]: expected an object/],
    [
      'an attachment without a kind',
      { note: { attachments: [{ attachment_id: '7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d' }] } },
      /notes\[0\]\.attachments\[0\]\.attachment_kind: expected a string/,
    ],
    ['content over the limit', { note: { content: 'x'.repeat(200_001) } }, /notes\[0\]\.content: .*at most 200000/],
    ['a bad time', { note: { updated_at: 'yesterday' } }, /notes\[0\]\.updated_at/],
    ['an id with a newline', { note: { id: 'a\nb' } }, /notes\[0\]\.id: expected a lower-case UUID/],
    ['a path as a note id', { note: { id: '../../etc/passwd' } }, /notes\[0\]\.id: expected a lower-case UUID/],
    [
      'an upper-case note id',
      { note: { id: '5C2D8E4F-1A3B-4C5D-8E6F-9A0B1C2D3E4F' } },
      /notes\[0\]\.id: expected a lower-case UUID/,
    ],
    [
      'a user id that is no UUID',
      { user: { id: 'u1' }, note: { owner_id: 'u1' } },
      /users\[0\]\.id: expected a lower-case UUID/,
    ],
    ['an unknown field', { note: { colour: 'red' } }, /notes\[0\]: unknown field "colour"/],
    ['grants that are not triples', { top: { grants: [['n1', 'u1']] } }, /grants\[0\]: expected \[resource id/],
    ['a generation that is not a count', { top: { generation: 'two' } }, /generation: expected an integer/],
  ];
  it.each(cases)('%s', async (_, patch, expected) => {
    expect(await startError(file(patch))).toMatch(expected);
  });

  it('accepts the valid base case (the cases above differ by one value)', async () => {
    const fake = await start(file({}));
    expect([...fake.store.notes.keys()]).toEqual(['5c2d8e4f-1a3b-4c5d-8e6f-9a0b1c2d3e4f']);
    await fake.close();
  });
});

describe('--state: a stated cap, so that every acknowledged write reloads', () => {
  it('refuses writes past the cap with 507, lets deletes make room, and reloads everything acknowledged', async () => {
    const state = join(freshDir(), 'state.json');
    const fake = await start(state, { stateCapBytes: 64 * 1024, users: ['cap-token-0001'] });
    const acknowledged: string[] = [];
    let refused: FakeResponse | undefined;
    for (let i = 0; i < 40 && !refused; i++) {
      const res = call(fake, 'POST', '/v2/notes', { content: `note ${i}\n${'word '.repeat(1_000)}` });
      if (res.status === 200) acknowledged.push((res.json as { id: string }).id);
      else refused = res;
    }
    expect(refused?.status).toBe(507);
    expect((refused!.json as { error: { message: string } }).error.message).toMatch(
      /is at its cap \(\d+\.\d MiB of 0\.1 MiB saved( and \d+\.\d MiB of changes not folded in yet)?\): writes are refused .* delete notes/,
    );
    expect(acknowledged.length).toBeGreaterThan(5);
    // Reads pass; a delete makes room, and a create is accepted again.
    expect(call(fake, 'GET', '/v2/notes').status).toBe(200);
    expect(call(fake, 'DELETE', `/v2/notes/${acknowledged.shift()}`).status).toBe(200);
    expect(call(fake, 'DELETE', `/v2/notes/${acknowledged.shift()}`).status).toBe(200);
    const again = call(fake, 'POST', '/v2/notes', { content: 'after the delete' });
    expect(again.status).toBe(200);
    acknowledged.push((again.json as { id: string }).id);
    await fake.close();
    const reloaded = await start(state, { stateCapBytes: 64 * 1024 });
    expect([...reloaded.store.notes.keys()].sort()).toEqual([...acknowledged].sort());
    await reloaded.close();
  });

  it('does not fold the whole state in on every write near the cap (a save each, 3.8 s at the real cap)', async () => {
    const state = join(freshDir(), 'state.json');
    const fake = await start(state, { stateCapBytes: 256 * 1024, users: ['cap-token-0002'] });
    const ids: string[] = [];
    const create = () => call(fake, 'POST', '/v2/notes', { content: `note\n${'word '.repeat(4_000)}` });
    for (let res = create(); res.status === 200; res = create()) ids.push((res.json as { id: string }).id);
    // Deletes make room (the next write folds in to see it): a note fits, and room for about one more.
    for (const id of ids.splice(-2)) expect(call(fake, 'DELETE', `/v2/notes/${id}`).status).toBe(200);
    expect(create().status).toBe(200);
    const generation = () => (JSON.parse(readFileSync(state, 'utf8')) as { generation: number }).generation;
    const before = generation();
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      const note = call(fake, 'GET', `/v2/notes/${ids[i]}`).json as { version: number };
      const body = { content: `edit ${i}\n${'word '.repeat(4_000)}`, version: note.version };
      statuses.push(call(fake, 'PATCH', `/v2/notes/${ids[i]}`, body).status);
    }
    expect(generation() - before).toBeLessThanOrEqual(1);
    expect(statuses).toContain(507);
    await fake.close();
  });

  it('stops a big state without folding it in (seconds at the cap): the synced journal stays and reloads', async () => {
    const state = join(freshDir(), 'state.json');
    const reports: string[] = [];
    const fake = await start(state, { users: ['big-token-0001'], report: (l) => reports.push(l) });
    const ids: string[] = [];
    // About 36 MiB: past the 32 MiB folded in on close, and past one 16 MiB fold while writing.
    for (let i = 0; i < 180; i++)
      ids.push(
        (call(fake, 'POST', '/v2/notes', { content: `${i}\n${'w '.repeat(99_990)}` }).json as { id: string }).id,
      );
    expect(call(fake, 'DELETE', `/v2/notes/${ids.pop()}`).status).toBe(200);
    const savedBefore = statSync(state).mtimeMs;
    await fake.close();
    expect(statSync(state).mtimeMs).toBe(savedBefore);
    expect(reports).toEqual([`the last changes stay in ${state}.journal; the next start folds them in`]);
    const reloaded = await start(state);
    expect([...reloaded.store.notes.keys()].sort()).toEqual(ids.sort());
    await reloaded.close();
  });

  it('refuses at start, with its size, a state file too large to read as one string', async () => {
    const state = join(freshDir(), 'state.json');
    writeFileSync(state, '');
    truncateSync(state, 400 * 1024 * 1024);
    expect(await startError(state)).toMatch(/state\.json: 419430400 bytes, more than the \d+ a state file may have/);
  });
});
