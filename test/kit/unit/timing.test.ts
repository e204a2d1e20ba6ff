import { describe, expect, it } from 'vitest';
import { assumedProfile } from '../../../kit/assumed-profile.js';
import type { Api } from '../../../kit/core/api.js';
import { eventually, poll, sameAtPrecision, searchIndexLagMs, timestampPrecisionMs } from '../../../kit/core/timing.js';
import { loadBuiltinProfile, type Profile } from '../../../spec/profile.js';
import { DataFactory } from '../../../suites/harness/data.js';
import { KitError } from '../../../suites/harness/errors.js';
import { expectSameInstant } from '../../../suites/harness/expect.js';

const profile = (extra: Partial<Profile> = {}): Profile => ({ name: 'p', ...extra });
const T = Date.parse('2024-05-06T07:08:09.456Z');

describe('timestamp precision', () => {
  it('is the declared value; 1 for a declared profile without it; whole seconds when no profile was given', () => {
    expect(timestampPrecisionMs({ profile: profile({ timestamp_precision_ms: 1000 }), profileDeclared: true })).toBe(
      1000,
    );
    expect(timestampPrecisionMs({ profile: profile(), profileDeclared: true })).toBe(1);
    expect(timestampPrecisionMs({ profile: profile(), profileDeclared: false })).toBe(1000);
  });

  it('accepts the instant itself or the instant cut (or rounded up) to the step, and nothing else', () => {
    expect(sameAtPrecision(T, T, 1)).toBe(true);
    expect(sameAtPrecision(T - 456, T, 1)).toBe(false);
    expect(sameAtPrecision(T - 456, T, 1000)).toBe(true);
    expect(sameAtPrecision(T + 544, T, 1000)).toBe(true);
    expect(sameAtPrecision(T - 1456, T, 1000)).toBe(false);
    expect(sameAtPrecision(T + 3_600_000 - 456, T, 1000)).toBe(false);
  });

  it('expectSameInstant tolerates truncation only when told the precision', () => {
    const cut = new Date(T - 456).toISOString();
    expect(() => expectSameInstant(cut, T, 'created_at')).toThrow(/created_at/);
    expect(() => expectSameInstant(cut, T, 'created_at', 1000)).not.toThrow();
    expect(() => expectSameInstant(new Date(T - 2000).toISOString(), T, 'created_at', 1000)).toThrow(/kept to 1000 ms/);
    expect(() => expectSameInstant(T - 456, new Date(T).toISOString(), 'a read', 1000)).not.toThrow();
  });

  it('time windows count offsets in whole precision steps, so every instant in them is stored as sent', () => {
    const data = new DataFactory({} as Api, 'run1', 1000);
    const w = data.window();
    expect(w.start % 1000).toBe(0);
    expect([w.ms(-1) - w.start, w.ms(1_500) - w.start]).toEqual([-1000, 1_500_000]);
    expect(w.at(3) < w.at(4)).toBe(true);
    const ms = new DataFactory({} as Api, 'run1').window();
    expect(ms.ms(1) - ms.start).toBe(1);
  });
});

describe('polling for a lagging search index', () => {
  it('the lag is the declared one, else 10000 ms; the fake declares 0, which a target without a profile is not assumed to share', () => {
    expect(searchIndexLagMs({ profile: profile({ search_index_lag_ms: 1500 }) })).toBe(1500);
    expect(searchIndexLagMs({ profile: profile() })).toBe(10_000);
    expect(searchIndexLagMs({ profile: loadBuiltinProfile('fake') })).toBe(0);
    expect(searchIndexLagMs({ profile: assumedProfile() })).toBe(10_000);
  });

  it('reads until ready, and gives up after the lag with the last reading', async () => {
    let reads = 0;
    const soon = await poll(
      { profile: profile({ search_index_lag_ms: 2000 }) },
      async () => ++reads,
      (n) => n >= 3,
    );
    expect(soon).toEqual({ value: 3, ready: true });
    const started = Date.now();
    reads = 0;
    const never = await poll(
      { profile: profile({ search_index_lag_ms: 300 }) },
      async () => ++reads,
      () => false,
    );
    expect(never.ready).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(reads).toBeGreaterThan(1);
    expect(reads).toBeLessThanOrEqual(15);
  });

  it("eventually: a reading that never becomes ready is the kit's error (KitError) naming the lag, never a fail", async () => {
    const failing = eventually(
      { profile: profile({ search_index_lag_ms: 0 }) },
      'the new note in search',
      async () => 0,
      () => false,
    );
    await expect(failing).rejects.toBeInstanceOf(KitError);
    await expect(
      eventually(
        { profile: profile({ search_index_lag_ms: 0 }) },
        'the new note in search',
        async () => 0,
        () => false,
      ),
    ).rejects.toThrow(/the new note in search did not show within the search index lag \(0 ms\)/);
    await expect(
      eventually(
        { profile: profile() },
        'x',
        async () => 7,
        (v) => v === 7,
      ),
    ).resolves.toBe(7);
  });
});
