import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { fakeCommand } from '../../cli/fake-command.js';
import { UsageError } from '../../suites/harness/errors.js';

describe('notes-conformance fake', () => {
  it('serves the fake, prints its URL and tokens, and stops when told', async () => {
    const lines: string[] = [];
    let stop!: () => void;
    let ready!: () => void;
    const started = new Promise<void>((r) => (ready = r));
    const done = fakeCommand(['--port', '0', '--token', 'cli-token-1', '--seed', '3', '--quota', '5'], {
      out: (line) => {
        lines.push(line);
        if (line.startsWith('faults:')) ready();
      },
      untilStopped: () => new Promise<void>((r) => (stop = r)),
    });
    await started;
    const url = /listening on (\S+)/.exec(lines[0]!)![1]!;
    expect(lines.join('\n')).toMatch(/tokens: +cli-token-1/);
    const res = await request(`${url}/v2/notes`, { headers: { authorization: 'Bearer cli-token-1' } });
    expect(res.statusCode).toBe(200);
    await res.body.dump();
    stop();
    expect(await done).toBe(0);
  });

  it('refuses bad flags, unknown faults and bad profiles as usage errors', async () => {
    const io = { out: () => {}, untilStopped: async () => {} };
    await expect(fakeCommand(['--port', 'x'], io)).rejects.toThrow(UsageError);
    await expect(fakeCommand(['--bogus'], io)).rejects.toThrow(UsageError);
    await expect(fakeCommand(['--port', '0', '--fault', 'no.such.fault'], io)).rejects.toThrow(/unknown fault/);
    await expect(fakeCommand(['--port', '0', '--profile', '/nonexistent.yaml'], io)).rejects.toThrow(/cannot read the file/);
    await expect(fakeCommand(['--rate-limit', 'fast'], io)).rejects.toThrow(/REQUESTS\/SECONDS/);
  });

  it('lists faults with the rule each breaks', async () => {
    const lines: string[] = [];
    expect(await fakeCommand(['--list-faults'], { out: (l) => lines.push(l), untilStopped: async () => {} })).toBe(0);
    expect(lines.length).toBeGreaterThan(200);
    expect(lines.find((l) => l.startsWith('notes.update.stale-version-accepted'))).toMatch(/breaks notes\.update\.version-stale-refused/);
  });
});
