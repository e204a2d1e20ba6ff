import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compareCommand } from '../../cli/compare-command.js';
import { compareReports, renderComparison } from '../../reporters/compare.js';
import { renderJson } from '../../reporters/render-json.js';
import type { ConformanceReport, Verdict } from '../../reporters/report.js';
import { UsageError } from '../../spec/verdicts.js';
import { catalogueReport } from './fixtures.js';

/** `notes-conformance compare OLD NEW`: what a pull request changed, and exit 1 when it got worse. */
const base = catalogueReport();
const passing = base.rules.filter((r) => r.verdict === 'pass').map((r) => r.id);
const failing = base.rules.filter((r) => r.verdict === 'fail').map((r) => r.id);

/** The base report with some rules' verdicts moved (undefined: the rule is left out). */
function moved(changes: Record<string, Verdict | undefined>): ConformanceReport {
  return {
    ...base,
    rules: base.rules
      .filter((r) => !(r.id in changes) || changes[r.id] !== undefined)
      .map((r) => (r.id in changes ? { ...r, verdict: changes[r.id]!, reason: `now ${changes[r.id]}` } : r)),
  };
}

const scratch = mkdtempSync(join(tmpdir(), 'nc-compare-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
function file(name: string, text: string): string {
  writeFileSync(join(scratch, name), text);
  return join(scratch, name);
}

describe('compare', () => {
  it('sorts every move into newly failing, coverage lost, newly passing, newly judged and the rest', () => {
    const after = moved({
      [passing[0]!]: 'fail',
      [passing[1]!]: 'error',
      [passing[2]!]: 'skipped',
      [passing[3]!]: undefined,
      [failing[0]!]: 'pass',
      [failing[1]!]: 'error',
      [passing[4]!]: 'warn',
    });
    const c = compareReports(base, { ...after, tier: 'smoke' });
    const ids = (list: readonly { id: string }[]) => list.map((x) => x.id);
    expect(ids(c.newlyFailing).sort()).toEqual([passing[0], passing[1]].sort());
    expect(ids(c.coverageLost).sort()).toEqual([passing[2], passing[3]].sort());
    expect(ids(c.newlyPassing)).toEqual([failing[0]]);
    expect(ids(c.changed).sort()).toEqual([failing[1], passing[4]].sort());
    expect(c.setting).toEqual(['tier full -> smoke']);
    const back = compareReports(after, base);
    expect(ids(back.newlyJudged).sort()).toEqual([passing[2], passing[3]].sort());
    const text = renderComparison(c, { before: 'old.json', after: 'new.json' });
    expect(text).toContain(`newly failing (2):\n`);
    expect(text).toContain(`  ${passing[3]}: pass -> not reported`);
    expect(text.trimEnd().split('\n').at(-1)).toBe('WORSE: 2 newly failing, 2 no longer judged; exit 1');
  });

  it('exits 0 when nothing got worse, 1 when something did, and 2 for a file that is no report of this format', () => {
    const out: string[] = [];
    const old = file('old.json', renderJson(base));
    const same = file('same.json', renderJson(base));
    const better = file('better.json', renderJson(moved({ [failing[0]!]: 'pass' })));
    const worse = file('worse.json', renderJson(moved({ [passing[0]!]: 'fail' })));
    expect(compareCommand([old, same], (t) => out.push(t))).toBe(0);
    expect(out.pop()).toMatch(/NO WORSE: nothing newly failing, no coverage lost; exit 0\n$/);
    expect(compareCommand([old, better], (t) => out.push(t))).toBe(0);
    expect(out.pop()).toMatch(/^BETTER/m);
    expect(compareCommand([old, worse], (t) => out.push(t))).toBe(1);
    const { format_version: _v, ...unversioned } = JSON.parse(renderJson(base)) as Record<string, unknown>;
    const cases: Array<[string[], RegExp]> = [
      [[old], /takes two JSON reports, OLD and NEW \(got 1/],
      [[old, join(scratch, 'missing.json')], /cannot read .*missing\.json: ENOENT/],
      [[old, file('text.json', 'not json')], /cannot read .*text\.json: Unexpected token/],
      [
        [old, file('old-format.json', JSON.stringify(unversioned))],
        /without a format_version.*this kit reads format 1/,
      ],
      [
        [old, file('v2.json', JSON.stringify({ ...unversioned, format_version: 2 }))],
        /report format 2; this kit reads format 1/,
      ],
      [
        [old, file('bad.json', JSON.stringify({ ...unversioned, format_version: 1, seed: 'x' }))],
        /\/seed: must be integer/,
      ],
    ];
    for (const [args, message] of cases) expect(() => compareCommand(args, () => {}), message.source).toThrow(message);
    expect(() => compareCommand([old], () => {})).toThrow(UsageError);
  });
});
