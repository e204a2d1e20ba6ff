import { describe, expect, it } from 'vitest';
import type { TestCase } from 'vitest/node';
import { OutcomeCollector } from '../../reporters/collector.js';

/** The parts of vitest's TestCase the collector reads. */
function testCase(o: {
  state: 'passed' | 'failed' | 'skipped';
  duration?: number;
  note?: string;
  project?: string;
}): TestCase {
  return {
    name: 'creates a note [notes.create.a]',
    project: { name: o.project ?? 'conformance' },
    module: { moduleId: `${process.cwd()}/suites/notes.check.ts` },
    options: { mode: 'run' },
    meta: () => ({ rules: ['notes.create.a'] }),
    result: () => ({
      state: o.state,
      errors: o.state === 'failed' ? [{ name: 'AssertionError', message: 'no' }] : [],
      ...(o.note ? { note: o.note } : {}),
    }),
    diagnostic: () => (o.duration === undefined ? undefined : { duration: o.duration }),
  } as unknown as TestCase;
}

describe('OutcomeCollector', () => {
  it('records each check with its duration from diagnostic(), and ignores other projects', () => {
    const seen: string[] = [];
    const collector = new OutcomeCollector('conformance', (o) => seen.push(o.name));
    collector.onTestCaseResult(testCase({ state: 'failed', duration: 812.5 }));
    collector.onTestCaseResult(testCase({ state: 'skipped', note: 'needs a second user' }));
    collector.onTestCaseResult(testCase({ state: 'passed', duration: 3, project: 'fast' }));
    expect(collector.outcomes).toEqual([
      {
        name: 'creates a note',
        file: 'suites/notes.check.ts',
        rules: ['notes.create.a'],
        state: 'failed',
        errors: [{ name: 'AssertionError', message: 'no' }],
        durationMs: 812.5,
      },
      {
        name: 'creates a note',
        file: 'suites/notes.check.ts',
        rules: ['notes.create.a'],
        state: 'skipped',
        note: 'needs a second user',
        errors: [],
      },
    ]);
    expect(seen).toEqual(['creates a note', 'creates a note']);
  });
});
