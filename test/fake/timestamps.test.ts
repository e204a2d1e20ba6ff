import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTimestamp } from '../../fake/service/validate.js';
import { harness } from './helpers.js';

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const daysIn = (y: number, m: number) =>
  m === 2 ? (y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28) : [4, 6, 9, 11].includes(m) ? 30 : 31;

/** A valid UTC instant of years 0000 to maxYear, written as the fake writes it back. */
const instant = (maxYear: number) =>
  fc
    .record({
      y: fc.integer({ min: 0, max: maxYear }),
      m: fc.integer({ min: 1, max: 12 }),
      d: fc.integer({ min: 1, max: 31 }),
      h: fc.integer({ min: 0, max: 23 }),
      mi: fc.integer({ min: 0, max: 59 }),
      s: fc.integer({ min: 0, max: 59 }),
      ms: fc.integer({ min: 0, max: 999 }),
    })
    .map(
      ({ y, m, d, h, mi, s, ms }) =>
        `${pad(y, 4)}-${pad(m)}-${pad(Math.min(d, daysIn(y, m)))}T${pad(h)}:${pad(mi)}:${pad(s)}.${pad(ms, 3)}Z`,
    );

describe('timestamps of every year 0000-9999', () => {
  it('parse to the instant they name (no 1900 shift for years 0000-0099)', () => {
    fc.assert(
      fc.property(instant(9999), (text) => {
        expect(new Date(parseTimestamp(text, 'created_at')).toISOString()).toBe(text);
      }),
      { numRuns: 3_000, seed: 13 },
    );
    expect(new Date(parseTimestamp('0001-06-15T12:00:00Z', 'x')).toISOString()).toBe('0001-06-15T12:00:00.000Z');
    expect(new Date(parseTimestamp('0000-02-29T00:00:00Z', 'x')).toISOString()).toBe('0000-02-29T00:00:00.000Z');
    expect(new Date(parseTimestamp('0000-01-01T00:30:00+00:30', 'x')).toISOString()).toBe('0000-01-01T00:00:00.000Z');
    expect(new Date(parseTimestamp('9999-12-31T23:59:59.999999Z', 'x')).toISOString()).toBe('9999-12-31T23:59:59.999Z');
  });

  it('are stored and answered exactly through the API (created_at of years up to now)', () => {
    const h = harness();
    fc.assert(
      fc.property(instant(2025), (text) => {
        const created = h.call('POST', '/v2/notes', { content: 'dated', created_at: text });
        expect(created.status, created.text).toBe(200);
        const id = (created.json as { id: string }).id;
        expect((h.call('GET', `/v2/notes/${id}`).json as { created_at: string }).created_at).toBe(text);
        h.call('DELETE', `/v2/notes/${id}`);
      }),
      { numRuns: 300, seed: 13 },
    );
    const old = h.call('POST', '/v2/collections', {
      title: 'old',
      created_at: '0001-06-15T12:00:00Z',
      updated_at: '0099-12-31T23:59:59Z',
    });
    expect(old.json).toMatchObject({ created_at: '0001-06-15T12:00:00.000Z', updated_at: '0099-12-31T23:59:59.000Z' });
  });

  it('refuse impossible dates and instants outside 0000-9999 with 400, never rolled over', () => {
    const h = harness();
    const impossible = [
      '2024-13-01T00:00:00Z',
      '2024-00-10T00:00:00Z',
      '2024-02-30T00:00:00Z',
      '2023-02-29T00:00:00Z',
      '1900-02-29T00:00:00Z',
      '0100-02-29T00:00:00Z',
      '2024-04-31T00:00:00Z',
      '2024-01-00T00:00:00Z',
      '2024-01-32T00:00:00Z',
      '2024-01-01T24:00:00Z',
      '2024-01-01T23:60:00Z',
      '2024-01-01T23:59:60Z',
      '2024-01-01T00:00:00+24:00',
      '2024-01-01T00:00:00+01:60',
      '0000-01-01T00:00:00+00:01',
      '10000-01-01T00:00:00Z',
      '-0001-01-01T00:00:00Z',
      '+002024-01-01T00:00:00Z',
    ];
    for (const text of impossible) {
      expect(() => parseTimestamp(text, 'created_at'), text).toThrow();
      const before = h.ctx.store.notes.size;
      const r = h.call('POST', '/v2/notes', { content: 'never', created_at: text });
      expect(r.status, `${text}: ${r.text}`).toBe(400);
      const list = h.call('GET', `/v2/notes?filter_by_created_after=${encodeURIComponent(text)}`);
      expect(list.status, `${text}: ${list.text}`).toBe(400);
      expect(h.ctx.store.notes.size).toBe(before);
    }
    for (const leap of [
      '2024-02-29T00:00:00Z',
      '2000-02-29T00:00:00Z',
      '0000-02-29T00:00:00Z',
      '0004-02-29T00:00:00Z',
    ]) {
      expect(h.call('POST', '/v2/notes', { content: 'leap', created_at: leap }).status, leap).toBe(200);
    }
  });
});
