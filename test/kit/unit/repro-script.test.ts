import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Exchange, TargetClient } from '../../../kit/core/client.js';
import { filledIn, unfilled } from '../../../kit/core/repro.js';
import { reproduce, reproScript } from '../../../kit/core/repro-script.js';

/**
 * A failure's repro is one script that recreates what the failing request names, then sends it:
 * run after the run deleted everything, it gets the answer the run got (kit/core/repro-script.ts).
 * The target: notes and collections with the target's ids or the client's, versions, a move.
 */
const run = promisify(execFile);
const TOKEN = 'tok_script_primary_0001';
const OTHER = 'tok_script_second_0002';

interface Stored {
  id: string;
  owner: string;
  content?: string;
  version?: number;
  collections: string[];
}
const store = new Map<string, Stored>();
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const owner = String(req.headers.authorization ?? '');
      const body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>) : {};
      const [, , kind, id, sub, noteId, action] = new URL(req.url ?? '/', 'http://x').pathname.split('/');
      const mine = (key: string | undefined) => (key ? store.get(key) : undefined);
      if (req.method === 'POST' && !id) {
        const key = typeof body.id === 'string' ? body.id : randomUUID();
        if (store.has(key)) return send(409, { error: 'exists' });
        const collections = (body.collection_ids as string[] | undefined) ?? [];
        store.set(key, {
          id: key,
          owner,
          collections,
          ...(kind === 'notes' ? { content: String(body.content), version: 1 } : {}),
        });
        return send(200, {
          id: key,
          title: 'x',
          content: body.content,
          version: 1,
          collection_ids: collections,
          request_id: 'r',
        });
      }
      if (kind === 'collections' && sub === 'notes' && action === 'move' && req.method === 'POST') {
        const n = mine(noteId);
        if (!n || !mine(id) || !mine(body.target_collection_id as string)) return send(404, {});
        n.collections = [...n.collections.filter((c) => c !== id), body.target_collection_id as string];
        return send(200, { request_id: 'moved' });
      }
      const found = mine(id);
      if (!found) return send(404, { error: 'not found' });
      if (req.method === 'PATCH') {
        if (body.version !== found.version) return send(409, { error: 'version' });
        found.version = (found.version ?? 0) + 1;
        found.content = String(body.content);
        return send(200, { ...found, request_id: 'u' });
      }
      if (req.method === 'DELETE') {
        store.delete(found.id);
        return send(200, { request_id: 'd' });
      }
      // A leak on purpose: another user reads the note (the failure the script must show again).
      send(200, { id: found.id, version: found.version, collection_ids: found.collections, request_id: 'g' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
const scratch = mkdtempSync(join(tmpdir(), 'nc-repro-script-'));
afterAll(async () => {
  rmSync(scratch, { recursive: true, force: true });
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function recordingClient(): { client: TargetClient; exchanges: Exchange[] } {
  const client = new TargetClient({
    baseUrl: base,
    timeoutMs: 5000,
    requestBudget: 1000,
    secrets: [TOKEN, OTHER],
    secretVariables: { [TOKEN]: 'NOTES_TOKEN', [OTHER]: 'NOTES_SECONDARY_TOKEN' },
  });
  const exchanges: Exchange[] = [];
  client.record(exchanges);
  return { client, exchanges };
}

/** Run by sh and by bash alike (they quote differently inside `${VAR:?word}`): the two must agree. */
async function runScript(script: string, env: Record<string, string>, shell = 'sh') {
  const file = join(scratch, 'repro.sh');
  writeFileSync(file, `${script}\n`);
  return run(shell, [file], { env: { PATH: process.env.PATH, ...env } });
}

describe('a failure repro that recreates what it needs', () => {
  it('makes the collections and notes the failing request names, the writes since, and then sends it', async () => {
    const { client, exchanges } = recordingClient();
    const as = (token: string) => (o: Omit<Parameters<TargetClient['send']>[0], 'token'>) =>
      client.send({ ...o, token });
    const me = as(TOKEN);
    const source = (await me({ method: 'POST', path: '/v2/collections', json: { title: 'from' } })).json as {
      id: string;
    };
    const target = (await me({ method: 'POST', path: '/v2/collections', json: { title: 'to', id: randomUUID() } }))
      .json as { id: string };
    const note = (await me({ method: 'POST', path: '/v2/notes', json: { content: 'a', collection_ids: [source.id] } }))
      .json as { id: string };
    await me({ method: 'POST', path: '/v2/notes', json: { content: 'unrelated' } });
    await me({ method: 'PATCH', path: `/v2/notes/${note.id}`, json: { content: "b'c", version: 1 } });
    await me({ method: 'PATCH', path: `/v2/notes/${note.id}`, json: { content: 'stale', version: 1 } }); // refused: 409
    await me({ method: 'GET', path: `/v2/notes/${note.id}` });
    await me({
      method: 'POST',
      path: `/v2/collections/${source.id}/notes/${note.id}/move`,
      json: { target_collection_id: target.id },
    });
    const leak = await as(OTHER)({ method: 'GET', path: `/v2/notes/${note.id}` });
    const script = reproScript(exchanges, exchanges.length - 1)!;
    expect(script).not.toContain(TOKEN);
    expect(script).not.toContain(note.id);
    // Five writes and the refused stale update: a refusal that changed something shows only if sent again.
    expect(script).toMatch(/^# Recreates what the failing request names \(6 requests\), then sends it\.$/m);
    expect(script).toMatch(/^# PATCH \/v2\/notes\/\$NOTE_1 \(answered 409 in the run\)$/m);
    // The run deletes what it made: the script must make its own.
    store.clear();
    const { stdout } = await runScript(script, { NOTES_TOKEN: TOKEN, NOTES_SECONDARY_TOKEN: OTHER }, 'bash');
    expect(Number(/^HTTP\/\S+ (\d{3})/m.exec(stdout)?.[1])).toBe(leak.status);
    const answer = JSON.parse(stdout.slice(stdout.indexOf('{'))) as { version: number; collection_ids: string[] };
    expect(answer.version, 'the update was made again').toBe(2);
    expect(answer.collection_ids, 'and the move').toHaveLength(1);
    expect(answer.collection_ids[0]).not.toBe(target.id); // a fresh id for the one the kit gave
    expect([...store.values()].filter((s) => s.content === 'unrelated')).toEqual([]);
    await client.close();
  });

  it('gives the same steps as data for the run to replay, credentials and ids as markers', async () => {
    const { client, exchanges } = recordingClient();
    const me = (o: Omit<Parameters<TargetClient['send']>[0], 'token'>) => client.send({ ...o, token: TOKEN });
    const given = randomUUID();
    const collection = (await me({ method: 'POST', path: '/v2/collections', json: { title: 't', id: given } }))
      .json as { id: string };
    const note = (await me({ method: 'POST', path: '/v2/notes', json: { content: 'a', collection_ids: [given] } }))
      .json as { id: string };
    await me({ method: 'POST', path: '/v2/collections', json: { title: 'again', id: given } }); // refused: 409
    await client.send({ method: 'GET', path: `/v2/notes/${note.id}`, token: OTHER });
    const { script, plan } = reproduce(exchanges, exchanges.length - 1);
    expect(plan, 'a plan beside the script').toBeDefined();
    // The steps carry markers; the run's values of the ids stay beside them, to read a replay's answer.
    const steps = JSON.stringify(plan!.steps);
    for (const secret of [TOKEN, OTHER, note.id, collection.id]) expect(steps).not.toContain(secret);
    expect(JSON.stringify(plan)).not.toContain(TOKEN);
    // The script's requests, in its order: the collection (the kit's id: fresh), the note (the
    // target's: read from the answer), the refused create again, then the failing read.
    expect(plan!.steps.map((s) => `${s.method} ${filledIn(s.path, { NOTE_1: 'N' })} ${s.makes ?? ''}`.trim())).toEqual([
      'POST /v2/collections',
      'POST /v2/notes NOTE_1',
      'POST /v2/collections',
      'GET /v2/notes/N',
    ]);
    expect(script!.match(/\bcurl -sS\b/g)).toHaveLength(plan!.steps.length);
    expect(plan!.fresh).toEqual(['COLLECTION_1']);
    expect(plan!.ids).toEqual({ COLLECTION_1: given, NOTE_1: note.id });
    expect(plan!.steps.map((s) => unfilled(s.authorization ?? ''))).toEqual([
      ['NOTES_TOKEN'],
      ['NOTES_TOKEN'],
      ['NOTES_TOKEN'],
      ['NOTES_SECONDARY_TOKEN'],
    ]);
    expect(unfilled(plan!.steps[2]!.body!)).toEqual(['COLLECTION_1']);
    expect(plan!.answered.status).toBe(200);
    await client.close();
  });

  it('says plainly which token is missing, before any request', async () => {
    const { client, exchanges } = recordingClient();
    await client.send({ method: 'GET', path: '/v2/notes/x', token: OTHER });
    const script = reproScript(exchanges, 0)!;
    for (const shell of ['sh', 'bash'])
      await expect(runScript(script, { NOTES_TOKEN: TOKEN }, shell)).rejects.toThrow(
        /NOTES_SECONDARY_TOKEN: set NOTES_SECONDARY_TOKEN to the token of the second user/,
      );
    await client.close();
  });
});
