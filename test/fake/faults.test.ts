import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BATCH_FAULT_NAMES, FAULT_NAMES, FAULTS, FAULTS_BY_NAME, type FaultName } from '../../fake/faults/catalogue.js';
import { SEAMS } from '../../fake/service/seams.js';
import { packageRoot } from '../../spec/paths.js';
import { rulesById } from '../../spec/rules.js';
import { SCENARIOS } from './fault-scenarios.js';
import { Session } from './fault-session.js';

function sources(dir: string): string {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('catalogue.ts'))
    .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8'))
    .join('\n');
}

describe('fault catalogue', () => {
  const rules = rulesById();

  it('ties every fault to rules of the catalogue', () => {
    const unknown = FAULT_NAMES.flatMap((f) => FAULTS[f].rules.filter((r) => !rules.has(r)).map((r) => `${f}: ${r}`));
    expect(unknown).toEqual([]);
  });

  it('gives every fault a behaviour: hooks that change something', () => {
    const inert = FAULT_NAMES.filter((f) => Object.keys(FAULTS_BY_NAME[f].hooks()).length === 0);
    expect(inert).toEqual([]);
  });

  it('keeps the seams true: each one asked inside fake/service and switched on by a fault', () => {
    const service = sources(join(packageRoot, 'fake', 'service'));
    const asked = new Set([...service.matchAll(/\bbroken\('([^']+)'\)/g)].map((m) => m[1]));
    const switched = new Set(FAULT_NAMES.flatMap((f) => FAULTS_BY_NAME[f].hooks().seams ?? []));
    expect([...SEAMS].filter((s) => !asked.has(s) || !switched.has(s))).toEqual([]);
    expect([...asked].filter((s) => !(SEAMS as readonly string[]).includes(s!))).toEqual([]);
  });

  it('keeps the reference readable: at most 25 fault seams inside fake/service', () => {
    const service = sources(join(packageRoot, 'fake', 'service'));
    const seams = service.match(/\bbroken\(/g) ?? [];
    expect(seams.length).toBeLessThanOrEqual(25);
  });

  it('keeps fake/http free of faults: no fault name and no import from fake/faults', () => {
    const http = sources(join(packageRoot, 'fake', 'http'));
    expect(FAULT_NAMES.filter((f) => http.includes(`'${f}'`))).toEqual([]);
    expect(http).not.toMatch(/from '\.\.\/faults\//);
  });

  it('has at least one fault for every documented rule', () => {
    const covered = new Set<string>(FAULT_NAMES.flatMap((f) => FAULTS[f].rules));
    const missing = [...rules.values()].filter((r) => r.level === 'documented' && !covered.has(r.id)).map((r) => r.id);
    expect(missing).toEqual([]);
  });
});

function observe(scenario: (typeof SCENARIOS)[number], faults: FaultName[]): string {
  const session = new Session({ ...scenario.options, faults });
  scenario.run(session);
  return JSON.stringify(session.observed);
}

describe('each fault changes the behaviour of the rules it names', () => {
  const clean = new Map(SCENARIOS.map((s) => [s, observe(s, [])]));

  it('runs every scenario cleanly without a 5xx', () => {
    for (const [scenario, out] of clean) expect(out, scenario.name).not.toMatch(/"status":5\d\d/);
  });

  // A fault must visibly change something here, before the fault matrix proves a check catches it.
  // Scenarios of its rules judge it where there are some; a fault of a rule no scenario names yet
  // is judged by the scenarios of the same operation (area.operation of the id), else by all of
  // them, so that adding a rule with its check and fault needs no scenario of its own.
  // The held-out part of issue 32's batch too: a fault the matrix leaves out must still be real.
  it.each([...new Set([...FAULT_NAMES, ...BATCH_FAULT_NAMES])])('%s', (fault) => {
    const named = new Set<string>(FAULTS[fault].rules);
    const operation = (id: string) => id.split('.').slice(0, 2).join('.');
    const operations = new Set([...named].map(operation));
    const tiers = [
      SCENARIOS.filter((s) => s.rules.some((r) => named.has(r))),
      SCENARIOS.filter((s) => s.rules.some((r) => operations.has(operation(r)))),
      SCENARIOS,
    ];
    const scenarios = tiers.find((tier) => tier.length > 0)!;
    const changed = scenarios.filter((s) => observe(s, [fault]) !== clean.get(s));
    expect(
      changed.map((s) => s.name),
      `no scenario observes a difference (add one to test/fake/fault-scenarios.ts for ${[...named].join(', ')})`,
    ).not.toEqual([]);
  });
});
