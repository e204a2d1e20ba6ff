import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listOperations } from '../../spec/openapi.js';
import { packageRoot, specFile } from '../../spec/paths.js';
import { isProfileSchemaField, loadBuiltinProfile, profileField } from '../../spec/profile.js';
import {
  apiRevisions,
  notInForce,
  OPERATIONS_ADDED,
  operationNotInForce,
  revisionOn,
  v2Release,
} from '../../spec/revisions.js';
import { loadRules, RULE_ID_PATTERN } from '../../spec/rules.js';

const normalise = (text: string) => text.replace(/\s+/g, ' ').trim();
const documentText = readFileSync(specFile('api', 'notes-collections-v2.md'), 'utf8');
const documentFlat = normalise(documentText);

describe('rules.yaml', () => {
  const rules = loadRules();
  const operationIds = new Set(listOperations().map((o) => o.operationId));

  it('has well over 100 rules with unique, well-formed ids', () => {
    expect(rules.length).toBeGreaterThan(150);
    expect(new Set(rules.map((r) => r.id)).size).toBe(rules.length);
    for (const rule of rules) expect(rule.id).toMatch(RULE_ID_PATTERN);
  });

  it('quotes the API document verbatim in every rule', () => {
    const missing = rules.flatMap((r) =>
      r.quote.filter((q) => !documentFlat.includes(normalise(q))).map((q) => `${r.id}: ${q}`),
    );
    expect(missing).toEqual([]);
  });

  it('names only operations of openapi.yaml', () => {
    const unknown = rules.flatMap((r) =>
      r.operations.filter((op) => !operationIds.has(op)).map((op) => `${r.id}: ${op}`),
    );
    expect(unknown).toEqual([]);
  });

  it('ties every profile rule, and every need, to a field of the profile schema', () => {
    const bad = rules.flatMap((r) =>
      [r.profile, ...r.needs]
        .filter((f): f is string => f !== undefined && !isProfileSchemaField(f))
        .map((f) => `${r.id}: ${f}`),
    );
    expect(bad).toEqual([]);
    for (const rule of rules) expect(rule.level === 'profile').toBe(rule.profile !== undefined);
  });

  it('cites a part of the document that exists', () => {
    const parts = new Set([...documentText.matchAll(/^## (\d+)\. /gm)].map((m) => m[1]));
    for (const rule of rules) expect(parts.has(rule.section.split('.')[0]), rule.id).toBe(true);
  });

  it('covers every operation the document shows, and every endpoint heading of part 4', () => {
    const covered = new Set(rules.flatMap((r) => r.operations));
    // The fake's extensions (x-fake-extension, such as capture) are not in the document: no rule needs to judge them.
    for (const op of listOperations().filter((o) => !o.fakeExtension))
      expect(covered.has(op.operationId), op.operationId).toBe(true);
    const headings = [...documentText.matchAll(/^\*\*(GET|POST|PUT|PATCH|DELETE) (\S+)\*\*/gm)].map(
      (m) => `${m[1]} ${m[2]}`,
    );
    expect(headings.length).toBe(16);
    const sections = rules.map((r) => r.section).join('\n');
    for (const heading of headings) expect(sections.includes(heading), heading).toBe(true);
  });

  it('is fully declared by the fake profile, so the fake can decide every profile rule', () => {
    const fake = loadBuiltinProfile('fake');
    for (const rule of rules) {
      for (const field of [rule.profile, ...rule.needs].filter((f): f is string => f !== undefined)) {
        expect(profileField(fake, field), `${rule.id}: ${field}`).toBeDefined();
      }
    }
  });
});

describe('the date each rule entered the API (since)', () => {
  const rules = loadRules();
  const table = apiRevisions();
  const added = OPERATIONS_ADDED;
  const dateOf = (words: string) => table.find((r) => r.change.startsWith(words))?.date;

  it("reads the document's table: /v2 released 2025-06-03, newest first", () => {
    expect(v2Release()).toBe('2025-06-03');
    expect(table.map((r) => r.date)).toEqual([...table.map((r) => r.date)].sort().reverse());
    expect(revisionOn('2026-04-02')).toBe('2026-04-01');
    expect(revisionOn('2030-01-01')).toBe(table[0]!.date);
  });

  it('is a date of the revision table for every rule, none before the /v2 release', () => {
    const dates = new Set(table.map((r) => r.date));
    expect(rules.filter((r) => !dates.has(r.since) || r.since < v2Release()).map((r) => `${r.id}: ${r.since}`)).toEqual(
      [],
    );
  });

  it('gives every change of the table since the /v2 release to at least one rule', () => {
    const used = new Set(rules.map((r) => r.since));
    expect(table.filter((r) => r.date >= v2Release() && !used.has(r.date)).map((r) => r.date)).toEqual([]);
  });

  it('is no earlier than the row that added every operation of the rule', () => {
    for (const words of new Set(Object.values(added))) expect(dateOf(words), words).toBeDefined();
    const early = rules.flatMap((r) => {
      const dates = r.operations.map((op) => (added[op] ? dateOf(added[op]!) : undefined));
      if (dates.some((d) => d === undefined)) return [];
      const first = (dates as string[]).sort()[0]!;
      return r.since < first ? [`${r.id}: ${r.since}, but its operations came ${first}`] : [];
    });
    expect(early).toEqual([]);
  });

  it('says why a rule newer than --as-of is not judged, in one place (notInForce)', () => {
    expect(notInForce({ since: '2026-05-15' }, '2026-04-01')).toBe(
      'not yet in the API on 2026-04-01 (2026-05-15: Added PATCH /v2/notes/{note_id}/created-at)',
    );
    expect(notInForce({ since: '2026-04-01' }, '2026-04-01')).toBeUndefined();
    expect(notInForce({ since: '2026-05-15' }, undefined)).toBeUndefined();
    expect(operationNotInForce('moveNote', '2026-05-08')).toBe(
      'needs moveNote, not yet in the API on 2026-05-08 (2026-05-09: Added the move endpoint and membership endpoints)',
    );
    expect(operationNotInForce('moveNote', '2026-05-09')).toBeUndefined();
    expect(operationNotInForce('getNote', '2025-06-03')).toBeUndefined();
  });
});

describe('spec/api copy of the API document', () => {
  // The quotes above are checked against spec/api; this pins that copy to the document it was made
  // from, so the test never depends on a ../shared checkout being present.
  it('is the document the catalogue was written against (sha-256 recorded beside it)', () => {
    const recorded = readFileSync(specFile('api', 'notes-collections-v2.md.sha256'), 'utf8').trim();
    expect(createHash('sha256').update(documentText).digest('hex')).toBe(recorded);
  });

  const shared = join(packageRoot, '..', 'shared', 'api', 'notes-collections-v2.md');
  it('matches ../shared/api when that checkout is present (a newer document means the catalogue needs review)', () => {
    if (!existsSync(shared)) return; // the hash test above already pins the copy
    expect(documentText).toBe(readFileSync(shared, 'utf8'));
  });
});
