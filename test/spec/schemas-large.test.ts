import { describe, expect, it } from 'vitest';
import { createSchemaRegistry, MAX_PROBLEMS } from '../../spec/schemas.js';
import { responseExamples } from './response-examples.js';

/**
 * A hostile target may answer a list of a million items. Validation must stay linear in the
 * body's size and report a bounded number of problems, with the real positions of the items.
 * Linear is judged by the test timeout (60 s; each case takes a few seconds), not a stopwatch:
 * a slow machine must not fail it, a quadratic validator does.
 */
describe('validating a very long list', () => {
  const registry = createSchemaRegistry();
  const valid = responseExamples.NoteListResponse!.valid as { results: unknown[]; [k: string]: unknown };
  const item = valid.results[0];

  it('a million valid items: no problem but the page size', () => {
    expect(
      registry.validate('NoteListResponse', { ...valid, results: Array.from({ length: 1_000_000 }, () => item) }),
    ).toEqual([
      '/results: must NOT have more than 100 items (got [{"id":"0b6f7a52-3c1e-4f0e-9d7a-1b2c3d4e5f60","title":"Gr...)',
    ]);
  });

  it("a million broken items: the first problems, capped, at the items' real positions", () => {
    const results = Array.from({ length: 1_000_000 }, () => item);
    results[5000] = { ...(item as object), id: 42 };
    const problems = registry.validate('NoteListResponse', {
      ...valid,
      results: results.map((r, i) => (i >= 999_000 ? 7 : r)),
    });
    expect(problems.length).toBeLessThanOrEqual(MAX_PROBLEMS);
    expect(problems).toContain('/results/5000/id: must be string (got 42)');
    expect(problems.some((p) => p.startsWith('/results/999000: must be object'))).toBe(true);
  });

  it('strict validation of a long list still refuses unknown fields in a far item', () => {
    const results = Array.from({ length: 5000 }, () => item);
    results[4321] = { ...(item as object), surprise: true };
    const problems = registry.validate('NoteListResponse', { ...valid, results }, { strict: true });
    expect(problems.filter((p) => p.startsWith('/results/4321: must NOT have unevaluated properties'))).toHaveLength(1);
    expect(
      registry.validate(
        'NoteListResponse',
        { ...valid, results: results.slice(0, 100).concat([item]) },
        { strict: true },
      ),
    ).toEqual([
      '/results: must NOT have more than 100 items (got [{"id":"0b6f7a52-3c1e-4f0e-9d7a-1b2c3d4e5f60","title":"Gr...)',
    ]);
  });

  it('maxItems is still judged on a long list', () => {
    expect(
      registry.validate('NoteListResponse', { ...valid, results: Array.from({ length: 101 }, () => item) }).join(),
    ).toMatch(/more than 100 items/);
    expect(
      registry.validate('NoteListResponse', { ...valid, results: Array.from({ length: 5000 }, () => item) }).join(),
    ).toMatch(/more than 100 items/);
  });
});
