import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createFake, type Fake } from '../../fake/index.js';
import { REPLAY_SHARE } from '../../kit/confirm.js';
import { runKit } from '../../kit/run.js';
import { renderMarkdown } from '../../reporters/render-markdown.js';
import { renderTerminal } from '../../reporters/render-terminal.js';
import { packageRoot } from '../../spec/paths.js';
import { readReportFile } from '../report-file.js';

/**
 * Confirmed failures (kit/confirm.ts): each failed rule's repro is sent once more at the end of the
 * run. The target has two defects: a steady one (a refused create of an existing collection still
 * overwrites it: the fake's fault) and a passing one (the first answer to a note read has a title
 * the note never had, every later one is right: a proxy in front of the fake). The steady one reads
 * "reproduced", the passing one "not reproduced on replay", both still fail, the replays stay within
 * a tenth of the run's requests, and what they made is cleaned up like the rest.
 */
const TOKENS = { primary: 'confirm-primary-token-01', secondary: 'confirm-secondary-token-02' };

describe('failed rules replayed at the end of the run', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'nc-confirm-'));
  let fake: Fake | undefined;
  let proxy: Server | undefined;
  afterAll(async () => {
    await new Promise((done) => (proxy ? proxy.close(done) : done(undefined)));
    await fake?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('marks a steady failure reproduced and a passing one not reproduced, within a tenth of the requests', async () => {
    fake = await createFake({
      faults: ['collections.create.conflict-overwrites'],
      users: [TOKENS.primary, TOKENS.secondary],
    });
    let stale = true;
    proxy = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
        const answer = await fetch(`${fake!.url}${req.url}`, {
          method: req.method!,
          headers: Object.fromEntries(
            Object.entries(req.headers).filter(([k]) => !['host', 'content-length', 'connection'].includes(k)),
          ) as Record<string, string>,
          ...(body ? { body } : {}),
        });
        let text = await answer.text();
        // The passing defect: once, a note read shows a title the note never had.
        if (stale && req.method === 'GET' && /^\/v2\/notes\/[0-9a-f-]{36}$/.test(req.url!) && answer.status === 200) {
          stale = false;
          const note = JSON.parse(text) as { title: string };
          text = JSON.stringify({ ...note, title: `${note.title} (from a stale replica)` });
        }
        const headers = Object.fromEntries(
          [...answer.headers].filter(([k]) => !['content-length', 'content-encoding', 'transfer-encoding'].includes(k)),
        );
        res.writeHead(answer.status, headers);
        res.end(text);
      });
    });
    await new Promise<void>((done) => proxy!.listen(0, '127.0.0.1', done));
    const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    const json = join(scratch, 'report.json');
    await runKit(
      [
        '--quiet',
        '--target',
        url,
        '--token',
        TOKENS.primary,
        '--secondary-token',
        TOKENS.secondary,
        '--profile',
        join(packageRoot, 'spec/profiles/fake.yaml'),
        '--requests-per-second',
        '1000',
        '--json',
        json,
        '--only',
        'collections.create',
        '--only',
        'notes',
      ],
      {},
      () => {},
    );
    const report = readReportFile(json);
    expect(stale, 'the passing defect showed once').toBe(false);
    const failed = report.rules.filter((r) => r.verdict === 'fail');
    const replayed = failed.map((r) => ({ id: r.id, replayed: r.checks.find((c) => c.replayed)?.replayed }));
    // Every failure was replayed, and each counts still.
    for (const r of replayed) expect(r.replayed, `${r.id} was replayed`).toBeDefined();
    const result = (id: string) => replayed.find((r) => r.id === id)?.replayed?.result;
    expect(result('collections.create.id-conflict-no-upsert')).toBe('reproduced');
    const passing = replayed.filter((r) => r.replayed?.result === 'not-reproduced');
    expect(
      passing.length,
      JSON.stringify(
        report.rules
          .filter((r) => r.verdict !== 'pass' && r.verdict !== 'skipped')
          .map((r) => [r.id, r.verdict, r.reason, r.checks.find((c) => c.replayed)?.replayed]),
        null,
        1,
      ),
    ).toBeGreaterThan(0);
    // The proxy's once-only title: the replay read the note again, and the oracle found the rule
    // holding (or, for a rule only its check judges, the answer differed from the run's).
    expect(passing.map((r) => r.replayed!.detail)).toContainEqual(
      expect.stringMatching(/^on replay (the rule held: )?GET \/v2\/notes\/\$NOTE_1 answered 200\b/),
    );
    // One replay per rule (a rule failed by several checks names the one replayed), a tenth at most.
    const sent = replayed.reduce((n, r) => n + (r.replayed?.requests ?? 0), 0);
    expect(sent).toBeGreaterThan(0);
    expect(sent).toBeLessThanOrEqual(Math.floor(report.requests * REPLAY_SHARE));
    // What the replays made went with the rest.
    expect(report.leftovers).toBe(0);
    const held = [...fake.store.notes.values(), ...fake.store.collections.values()];
    expect(held.map((r) => JSON.stringify(r).slice(0, 300))).toEqual([]);
    // Every report says it: the terminal beside the document's words, the Markdown with the detail.
    const terminal = renderTerminal(report, { quiet: false, color: false });
    expect(terminal).toContain('[reproduced on replay]');
    expect(terminal).toContain('[not reproduced on replay]');
    expect(renderMarkdown(report)).toMatch(/not reproduced on replay: on replay /);
  }, 180_000);
});
