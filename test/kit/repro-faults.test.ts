import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { createFake, type Fake, ManualClock } from '../../fake/index.js';
import { runKit } from '../../kit/run.js';
import { packageRoot } from '../../spec/paths.js';
import { readReportFile } from '../report-file.js';

/**
 * The reports' repro commands reproduce: the kit runs against a fake with faults of several kinds
 * (a refusal expected but 200 given, a size limit, a deliberately invalid token, a missing token),
 * and each failing check's repro, run by bash with curl and the run's tokens in NOTES_TOKEN and
 * NOTES_SECONDARY_TOKEN, gets the status of the exchange the failure judged.
 * The first test takes faults whose judged request names no data the run created, and runs the
 * repros on the fake as the run left it. The kit deletes what it created, so a request on a note of
 * the run answers 404 afterwards (docs/reports.md "Reproductions"): the second test rebuilds the fake's
 * state as it was just before the failing exchange (a fresh seeded fake, given every earlier
 * request again), then runs the repro there.
 */
const run = promisify(execFile);
const FAULTS = [
  'auth.bearer.any-token-accepted',
  'notes.create.content-limit-off-by-one',
  'notes.list.default-limit-20',
  'errors.bad-input.crashes-on-malformed-json',
  'errors.missing.note-delete-succeeds',
];
const RULES = [
  'auth.bearer.invalid-refused',
  'notes.create.content-max-chars',
  'notes.list.limit-default-50',
  'errors.bad-input.no-5xx',
  'errors.missing.note-refused',
];
const TOKENS = { NOTES_TOKEN: 'repro-primary-token-0001', NOTES_SECONDARY_TOKEN: 'repro-secondary-token-0002' };

describe('repro commands of failing checks', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'nc-repro-faults-'));
  let fake: Fake | undefined;
  afterAll(async () => {
    await fake?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('each gets the status of the exchange that failed, from the faulted fake', async () => {
    fake = await createFake({
      faults: FAULTS,
      users: [TOKENS.NOTES_TOKEN, TOKENS.NOTES_SECONDARY_TOKEN],
      adminToken: 'repro-admin-token-0003',
    });
    const json = join(scratch, 'report.json');
    await runKit(
      [
        '--quiet',
        '--target',
        fake.url!,
        '--token',
        TOKENS.NOTES_TOKEN,
        '--secondary-token',
        TOKENS.NOTES_SECONDARY_TOKEN,
        '--profile',
        join(packageRoot, 'spec/profiles/fake.yaml'),
        '--fixtures-token',
        'repro-admin-token-0003',
        '--requests-per-second',
        '1000',
        '--request-budget',
        '100000',
        '--json',
        json,
        ...RULES.flatMap((r) => ['--only', r]),
      ],
      {},
      () => {},
    );
    const report = readReportFile(json);
    const failing = report.rules.flatMap((rule) =>
      rule.checks.filter((c) => c.verdict === 'fail').map((check) => ({ rule: rule.id, check })),
    );
    // Every fault shows, each through at least one failing check.
    expect([...new Set(failing.map((f) => f.rule))].sort()).toEqual([...RULES].sort());
    for (const { rule, check } of failing) {
      const what = `${rule} / ${check.name}`;
      expect(check.repro, `${what} has a repro`).toBeDefined();
      const judged = check.evidence?.find((x) => x.judged);
      expect(judged, `${what} marks the exchange it judged`).toBeDefined();
      expect(check.evidence![0], `${what}: the judged exchange comes first`).toBe(judged);
      // The real base URL and no token of the run in the clear.
      expect(check.repro).toContain(fake.url!);
      for (const token of Object.values(TOKENS)) expect(check.repro).not.toContain(token);
      const file = join(scratch, 'repro.sh');
      writeFileSync(file, `${freshCreateId(check.repro!)}\n`);
      const { stdout } = await run('bash', [file], {
        env: { PATH: process.env.PATH, ...TOKENS },
        maxBuffer: 64 * 1024 * 1024,
      });
      const status = Number(/^HTTP\/\S+ (\d{3})/.exec(stdout)?.[1]);
      expect(status, `${what}: the repro answered\n${stdout.slice(0, 400)}\nto\n${check.repro!.slice(0, 600)}`).toBe(
        judged!.status,
      );
    }
  }, 300_000);

  it('each gets the status of the exchange that failed when the request names data the run created', async () => {
    const faults = ['auth.scope.notes-unchecked', 'auth.bearer.missing-allowed-on-get'];
    const rules = ['auth.scope.notes-isolated', 'auth.bearer.required'];
    const admin = 'repro-admin-token-0004';
    const options = { seed: 11, faults, users: [TOKENS.NOTES_TOKEN, TOKENS.NOTES_SECONDARY_TOKEN], adminToken: admin };
    // The target: a seeded in-process fake behind a server that records every request in order.
    // The original answers each request at the instant the log records, as the rebuilt fake will.
    const originalClock = new ManualClock(Date.now());
    const original = await createFake({ ...options, listen: false, clock: originalClock });
    const log: Recorded[] = [];
    const front = await listen(original, log, originalClock);
    try {
      const json = join(scratch, 'stateful.json');
      await runKit(
        [
          '--quiet',
          '--target',
          front.url,
          '--token',
          TOKENS.NOTES_TOKEN,
          '--secondary-token',
          TOKENS.NOTES_SECONDARY_TOKEN,
          '--profile',
          join(packageRoot, 'spec/profiles/fake.yaml'),
          '--fixtures-token',
          admin,
          '--requests-per-second',
          '1000',
          '--request-budget',
          '100000',
          '--json',
          json,
          ...rules.flatMap((r) => ['--only', r]),
        ],
        {},
        () => {},
      );
      const report = readReportFile(json);
      const failing = report.rules.flatMap((rule) =>
        rule.checks.filter((c) => c.verdict === 'fail').map((check) => ({ rule: rule.id, check })),
      );
      expect([...new Set(failing.map((f) => f.rule))].sort()).toEqual([...rules].sort());
      // The run deleted what it made: each repro makes what it needs itself, on the target as the run left it.
      expect(original.store.notes.size, 'the run left nothing').toBe(0);
      const recreating = failing.filter(({ check }) => /^# Recreates what the failing/m.test(check.repro ?? ''));
      expect(recreating.length, 'some repros make the notes their request names').toBeGreaterThan(1);
      for (const { rule, check } of failing) {
        const what = `${rule} / ${check.name}`;
        const judged = check.evidence?.find((x) => x.judged);
        expect(judged, `${what} marks the exchange it judged`).toBeDefined();
        // An attachment is made by the fixture API, which no repro calls: its request is sent as it was.
        if (judged!.path.startsWith('/v2/note-attachments/')) {
          expect(check.repro).toMatch(/^# Sends the failing request again\.$/m);
          continue;
        }
        if (/\/v2\/(notes|collections)\/[0-9a-f]{8}-/.test(judged!.path))
          expect(check.repro, `${what}: the repro recreates what it names`).toMatch(/^# Recreates what the failing/m);
        const file = join(scratch, 'repro.sh');
        writeFileSync(file, `${check.repro!}\n`);
        const env = { PATH: process.env.PATH, ...TOKENS, NOTES_FIXTURES_TOKEN: admin };
        const { stdout } = await run('bash', [file], { env, maxBuffer: 64 * 1024 * 1024 });
        const status = Number(/^HTTP\/\S+ (\d{3})/m.exec(stdout)?.[1]);
        expect(status, `${what}: the repro answered\n${stdout.slice(0, 400)}\nto\n${check.repro!.slice(0, 1600)}`).toBe(
          judged!.status,
        );
      }
    } finally {
      await new Promise<void>((resolve) => front.server.close(() => resolve()));
      await original.close();
    }
  }, 300_000);
});

/**
 * One fault of each kind of rule: a declared status, an error body, a field of a read, a
 * sequence (an update after another) and isolation (a second user's request). Each failing rule's
 * evidence must be the exchange that broke it: the exchange its reason quotes, and the one its repro
 * sends, which on the fake rebuilt to the state just before it answers the same status and the same
 * judged field.
 */
const KINDS: ReadonlyArray<{ kind: string; fault: string; rule: string; field?: string }> = [
  { kind: 'status', fault: 'errors.status.validation-wrong', rule: 'errors.status.validation' },
  { kind: 'body', fault: 'errors.body.kind-missing', rule: 'errors.body.shape', field: '/error/type' },
  {
    kind: 'field',
    fault: 'notes.read.trashed-without-trashed-at',
    rule: 'notes.trash.readable-by-id',
    field: '/trashed_at',
  },
  { kind: 'sequence', fault: 'notes.update.stale-version-accepted', rule: 'notes.update.version-stale-refused' },
  { kind: 'isolation', fault: 'auth.scope.notes-unchecked', rule: 'auth.scope.notes-isolated' },
];

describe('the evidence of a failing rule is the exchange that broke it', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'nc-repro-kinds-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('for a fault of every kind of rule: the reason, the judged exchange and the repro agree', async () => {
    const admin = 'repro-admin-token-0005';
    const faults = KINDS.map((k) => k.fault);
    const options = { seed: 12, faults, users: [TOKENS.NOTES_TOKEN, TOKENS.NOTES_SECONDARY_TOKEN], adminToken: admin };
    // The original answers each request at the instant the log records, as the rebuilt fake will.
    const originalClock = new ManualClock(Date.now());
    const original = await createFake({ ...options, listen: false, clock: originalClock });
    const log: Recorded[] = [];
    const front = await listen(original, log, originalClock);
    try {
      const json = join(scratch, 'kinds.json');
      await runKit(
        [
          '--quiet',
          ...['--target', front.url, '--token', TOKENS.NOTES_TOKEN, '--secondary-token', TOKENS.NOTES_SECONDARY_TOKEN],
          ...['--profile', join(packageRoot, 'spec/profiles/fake.yaml'), '--fixtures-token', admin],
          ...['--requests-per-second', '1000', '--request-budget', '100000', '--json', json],
          ...KINDS.flatMap((k) => ['--only', k.rule]),
        ],
        {},
        () => {},
      );
      const report = readReportFile(json);
      const failing = report.rules.flatMap((rule) =>
        rule.checks.filter((c) => c.verdict === 'fail').map((check) => ({ rule: rule.id, check })),
      );
      const failed = new Set(failing.map((f) => f.rule));
      for (const { rule } of KINDS) expect(failed, `${rule} fails`).toContain(rule);
      const fixtureTokens = log
        .filter((r) => r.method === 'POST' && r.url === '/_fixtures/users' && r.status === 200)
        .map((r, i) => [`NOTES_FIXTURE_TOKEN_${i + 1}`, (JSON.parse(r.response) as { token: string }).token]);
      for (const { rule, check } of failing) {
        const what = `${rule} / ${check.name}`;
        const judged = check.evidence?.[0];
        expect(judged?.judged, `${what}: the evidence starts with the judged exchange`).toBe(true);
        expect(
          check.evidence!.filter((x) => x.judged),
          `${what}: one exchange is the rule's`,
        ).toHaveLength(1);
        // The reason's own words name the exchange it judged, when they quote one.
        const quoted = /\b(GET|POST|PATCH|PUT|DELETE|HEAD) (\/\S*) answered (\d{3})/.exec(check.message);
        if (quoted) {
          expect(`${judged!.method} ${judged!.path} ${judged!.status}`, `${what}: ${check.message}`).toBe(
            `${quoted[1]} ${quoted[2]} ${quoted[3]}`,
          );
        }
        const at = log.findLastIndex(
          (r) => r.method === judged!.method && r.url === judged!.path && r.status === judged!.status,
        );
        expect(at, `${what}: the judged exchange is in the target's log`).toBeGreaterThanOrEqual(0);
        // Each request again at the instant it was first answered: backdating rules depend on the clock.
        const clock = new ManualClock(log[0]!.at);
        const rebuilt = await createFake({ ...options, clock });
        try {
          for (const [i, r] of log.slice(0, at).entries()) {
            clock.set(r.at);
            const answer = rebuilt.handle({
              method: r.method,
              url: r.url,
              headers: r.headers,
              ...(r.body.length > 0 ? { body: r.body } : {}),
            });
            expect(answer.status, `${what}: request ${i} (${r.method} ${r.url}) again`).toBe(r.status);
          }
          clock.set(log[at]!.at);
          const file = join(scratch, 'repro.sh');
          writeFileSync(file, `${check.repro!.split(front.url).join(rebuilt.url!)}\n`);
          const env = {
            PATH: process.env.PATH,
            ...TOKENS,
            NOTES_FIXTURES_TOKEN: admin,
            ...Object.fromEntries(fixtureTokens),
          };
          const { stdout } = await run('bash', [file], { env, maxBuffer: 64 * 1024 * 1024 });
          const status = Number(/^HTTP\/\S+ (\d{3})/.exec(stdout)?.[1]);
          expect(
            status,
            `${what}: the repro answered\n${stdout.slice(0, 400)}\nto\n${check.repro!.slice(0, 600)}`,
          ).toBe(judged!.status);
          const field = KINDS.find((k) => k.rule === rule)?.field;
          if (field) {
            const body = stdout.slice(stdout.indexOf('\r\n\r\n') + 4);
            expect(pointer(JSON.parse(body), field), `${what}: ${field} of the repro's answer`).toEqual(
              pointer(JSON.parse(judged!.text), field),
            );
          }
        } finally {
          await rebuilt.close();
        }
      }
    } finally {
      await new Promise<void>((resolve) => front.server.close(() => resolve()));
      await original.close();
    }
  }, 300_000);
});

function pointer(value: unknown, path: string): unknown {
  let node = value;
  for (const key of path.slice(1).split('/')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

interface Recorded {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: Buffer;
  status: number;
  response: string;
  /** When the target answered it (epoch ms): a replay sets the rebuilt fake's clock to it. */
  at: number;
}

/** Serves an in-process fake over HTTP, keeping each request and its status in `log`. */
/**
 * Serves `fake` over HTTP and logs each exchange with the instant it was answered at: `clock`, the
 * fake's, is set to it first (a backdate of "now" judged a millisecond later would replay refused).
 */
async function listen(fake: Fake, log: Recorded[], clock: ManualClock): Promise<{ server: Server; url: string }> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers = Object.fromEntries(
        Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]),
      );
      const body = Buffer.concat(chunks);
      const at = Date.now();
      clock.set(at);
      const answer = fake.handle({
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers,
        ...(body.length > 0 ? { body } : {}),
      });
      log.push({
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers,
        body,
        status: answer.status,
        response: answer.text,
        at,
      });
      res.writeHead(answer.status, answer.headers);
      res.end(answer.text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/**
 * A create that carried its own id (the refused-create checks send one, to read back that nothing
 * was stored under it) cannot be sent twice: ids are create-only, and the second send answers 409
 * whatever the first did. A person replaying it puts a fresh id in its place, and so does this
 * test (same length, so the here-document's byte count still holds).
 */
function freshCreateId(repro: string): string {
  if (!/-X POST \\\n {2}'[^']*\/v2\/(notes|collections)'/.test(repro)) return repro;
  return repro.replace(
    /"id":"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"/,
    () => `"id":"${randomUUID()}"`,
  );
}
