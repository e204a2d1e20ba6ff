import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSync, type JsonSchema } from 'json-schema-faker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeAjvError } from '../../spec/ajv.js';
import { keptSchemaValidator } from '../../spec/kept-validators.js';
import { loadOpenApi } from '../../spec/openapi.js';
import { profileSchema } from '../../spec/profile.js';
import { createSchemaRegistry } from '../../spec/schemas.js';

/**
 * Validators kept as ajv's standalone code (spec/kept-validators.ts) must judge every body as the
 * validators compiled in the process do: the same problems, word for word, for valid bodies and
 * for each kind of broken one, whether the code was just compiled (a miss) or loaded (a hit).
 */
const doc = loadOpenApi();
const components = doc.components.schemas as Record<string, object>;
let cache: string;
let before: string | undefined;

beforeAll(() => {
  before = process.env.XDG_CACHE_HOME;
  cache = mkdtempSync(join(tmpdir(), 'nc-kept-'));
  process.env.XDG_CACHE_HOME = cache;
});
afterAll(() => {
  if (before === undefined) delete process.env.XDG_CACHE_HOME;
  else process.env.XDG_CACHE_HOME = before;
  rmSync(cache, { recursive: true, force: true });
});

const keptDir = () => join(cache, 'notes-conformance', 'validators');

/** Bodies for a component: generated valid ones, and each broken in the ways a server breaks them. */
function bodies(name: string): unknown[] {
  const valid = [1, 2].map((seed) =>
    generateSync({ ...components[name], components: doc.components } as JsonSchema, {
      seed,
      maxLength: 40,
      maxItems: 3,
      optionalsProbability: 0.7,
    }),
  );
  const broken = valid.flatMap((body) => {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return [];
    const record = body as Record<string, unknown>;
    return Object.keys(record).flatMap((key) => {
      const { [key]: _dropped, ...without } = record;
      return [without, { ...record, [key]: typeof record[key] === 'string' ? 7 : 'seven' }];
    });
  });
  return [...valid, ...broken, ...valid.map((b) => (typeof b === 'object' && b ? { ...b, unknown_field: 1 } : b))];
}

describe('validators kept as standalone code', () => {
  it("judge every body of openapi.yaml's schemas as the compiled ones do, lenient and strict, missed and hit", () => {
    const reference = createSchemaRegistry(doc); // compiled and checked in the process, nothing kept
    const missed = createSchemaRegistry(doc, { compile: 'use' });
    const cases = reference.names.map((name) => [name, bodies(name)] as const);
    const judged = (registry: typeof reference) =>
      cases.flatMap(([name, all]) =>
        all.flatMap((body) => [registry.validate(name, body), registry.validate(name, body, { strict: true })]),
      );
    const expected = judged(reference);
    expect(expected.some((problems) => problems.length > 0)).toBe(true);
    expect(judged(missed)).toEqual(expected);
    const kept = readdirSync(keptDir());
    expect(kept.length).toBe(reference.names.length * 2);
    expect(judged(createSchemaRegistry(doc, { compile: 'use' }))).toEqual(expected);
    expect(readdirSync(keptDir())).toEqual(kept);
  });

  it('keep the profile schema verbose: an unknown field is told the one it most likely meant', () => {
    const profile = { name: 'p', statusses: {} };
    const fresh = keptSchemaValidator(profileSchema(), { verbose: true });
    const loaded = keptSchemaValidator(profileSchema(), { verbose: true });
    const problems = (fn: typeof fresh) =>
      fn(profile) ? [] : (fn.errors ?? []).map((e) => describeAjvError(e, profile));
    expect(problems(fresh).join('\n')).toMatch(/statusses: unknown field \(did you mean statuses\?\)/);
    expect(problems(loaded)).toEqual(problems(fresh));
  });

  it('are loaded on a hit (a kept file is what judges), and a damaged one is compiled and kept again', () => {
    const names = () => readdirSync(keptDir()).filter((f) => f.endsWith('.cjs'));
    createSchemaRegistry(doc, { compile: 'use' }).validate('NoteReadResponse', {});
    const files = names();
    expect(files.length).toBeGreaterThan(0);
    const error = "{ instancePath: '', keyword: 'kept', params: {}, message: 'judged by the kept file' }";
    const sentinel = `"use strict";module.exports = function v(){ v.errors = [${error}]; return false; };`;
    for (const f of files) writeFileSync(join(keptDir(), f), sentinel);
    expect(createSchemaRegistry(doc, { compile: 'use' }).validate('NoteReadResponse', {})).toEqual([
      '/: judged by the kept file (got {})',
    ]);
    for (const f of files) writeFileSync(join(keptDir(), f), 'this is not javascript (');
    const again = createSchemaRegistry(doc, { compile: 'use' }).validate('NoteReadResponse', {});
    expect(again.length).toBeGreaterThan(0);
    expect(again.join()).not.toMatch(/kept file/);
    // The file used was kept again, whole: a new registry loads it and judges alike.
    const rewritten = files.filter((f) => readFileSync(join(keptDir(), f), 'utf8') !== 'this is not javascript (');
    expect(rewritten.length).toBe(1);
    expect(createSchemaRegistry(doc, { compile: 'use' }).validate('NoteReadResponse', {})).toEqual(again);
  });
});
