import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fakeCommand } from '../../cli/fake-command.js';

const dir = mkdtempSync(join(tmpdir(), 'fake-client-report-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const TOKEN = 'report-token-1';
const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

/** Serves the fake with the given flags, runs `client` against it, stops it; returns what it printed. */
async function withFake(args: string[], client: (url: string) => Promise<void>) {
  const lines: string[] = [];
  let stop!: () => void;
  let ready!: (url: string) => void;
  const started = new Promise<string>((r) => (ready = r));
  const done = fakeCommand(['--port', '0', '--token', TOKEN, ...args], {
    out: (line) => {
      lines.push(line);
      const m = /listening on (\S+)/.exec(line);
      if (m) ready(m[1]!);
    },
    untilStopped: () => new Promise<void>((r) => (stop = r)),
  });
  await client(await started);
  stop();
  expect(await done).toBe(0);
  return lines;
}

/** Three things public clients do that the document does not allow, and one it does not show. */
async function misbehave(url: string) {
  const post = (path: string, body: unknown) =>
    fetch(`${url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) }).then((r) => r.text());
  await post('/v2/notes/search', { query: 'x', limit: 5 });
  await post('/v2/notes', { content: 'x', id: '3b1f0c8e-1d2a-4c3b-8e9f-0a1b2c3d4e5f' });
  await post('/v2/notes', { content: 'again', id: '3b1f0c8e-1d2a-4c3b-8e9f-0a1b2c3d4e5f' });
  await post('/v2/notes/search', { query: 'x', filter_by_collection_ids: [] });
  await fetch(`${url}/v2/notes?order=created_at`, { headers }).then((r) => r.text());
}

describe('notes-conformance fake --client-report', () => {
  it('writes the rules its clients broke, with the document’s words, in the format of the extension', async () => {
    for (const ext of ['json', 'md', 'html']) {
      const file = join(dir, `report.${ext}`);
      await withFake(['--client-report', file], misbehave);
      const text = readFileSync(file, 'utf8');
      for (const id of [
        'notes.search.paging-in-query',
        'notes.create.id-conflict-no-upsert',
        'notes.list.order-by-values',
        'notes.search.parameter-names',
      ])
        expect(text, `${ext}: ${id}`).toContain(id);
      // The document's own words for the first, escaped as each format escapes them.
      expect(text).toMatch(/Query parameter/);
      if (ext === 'json') {
        const report = JSON.parse(text) as { rules: Array<{ id: string; verdict: string }> };
        const verdict = (id: string) => report.rules.find((r) => r.id === id)?.verdict;
        expect(verdict('notes.search.paging-in-query')).toBe('fail');
        expect(verdict('notes.search.parameter-names')).toBe('warn');
      }
      if (ext === 'html') expect(text).toMatch(/^<!doctype html>/);
    }
  });

  it('serves the same report at any time on GET /__fake/client-report', async () => {
    await withFake([], async (url) => {
      await misbehave(url);
      const md = await fetch(`${url}/__fake/client-report?format=md`);
      expect(md.headers.get('content-type')).toMatch(/text\/markdown/);
      expect(await md.text()).toContain('notes.search.paging-in-query');
      const json = (await (await fetch(`${url}/__fake/client-report`)).json()) as { rules: unknown[] };
      expect(json.rules.length).toBeGreaterThanOrEqual(4);
    });
  });

  it('refuses a file of another extension before it starts', async () => {
    const io = { out: () => {}, untilStopped: async () => {} };
    await expect(fakeCommand(['--client-report', join(dir, 'r.txt')], io)).rejects.toThrow(/\.json, \.md or \.html/);
  });
});
