import '../spec/check-meta.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createVitest, type Vitest } from 'vitest/node';
import { packageRoot } from '../spec/paths.js';
import { loadBuiltinProfile } from '../spec/profile.js';
import { selectedByOnly } from '../spec/rules.js';
import { REMOTE_BUDGETS } from './budgets.js';
import type { KitContext } from './core/context.js';
import type { Need } from './core/needs.js';

/** A check as its file declares it: the rule ids of its vitest `meta.rules`. */
export interface DeclaredCheck {
  /** Absolute path of the check file. */
  file: string;
  name: string;
  rules: readonly string[];
  /** The check runs in the smoke tier too (meta.smoke). */
  smoke?: boolean;
  /** What it needs beyond what every target offers (meta.needs; kit/core/needs.ts). */
  needs?: readonly Need[];
}

export interface CollectedChecks {
  checks: DeclaredCheck[];
  /** Files that failed to collect (a check naming an unknown rule id throws here), with why. */
  errors: string[];
}

/**
 * Collects the conformance checks without running them (vitest `collectTests`: each check file
 * is imported and its `check(...)` calls declare tests with `meta.rules`). Nothing is sent: the
 * files get a context whose target is never contacted (collection runs no hooks and no tests).
 */
export async function collectChecks(
  wrap: (create: () => Promise<Vitest>) => Promise<Vitest> = (create) => create(),
): Promise<CollectedChecks> {
  const runDir = mkdtempSync(join(tmpdir(), 'notes-conformance-collect-'));
  // `wrap`: a run passes its Interrupt's createVitest, so that vitest's own signal handlers (which
  // exit at once) come off and a signal while collecting still ends in the sweep.
  const vitest = await wrap(() =>
    createVitest('test', {
      root: packageRoot,
      config: join(packageRoot, 'vitest.config.ts'),
      project: ['conformance'],
      watch: false,
      reporters: [],
      // One worker that keeps its modules, as in a run: the kit is imported once, not per file.
      fileParallelism: false,
      isolate: false,
      maxWorkers: 1,
    }),
  );
  try {
    for (const project of vitest.projects) project.provide('kit', collectOnlyContext(runDir));
    const result = await vitest.collectTests(await vitest.globTestSpecifications());
    const checks: DeclaredCheck[] = [];
    const errors: string[] = [];
    for (const module of result.testModules) {
      for (const error of module.errors()) errors.push(`${module.moduleId}: ${error.message.split('\n')[0]}`);
      for (const test of module.children.allTests()) {
        const { rules, smoke, needs } = test.meta();
        if (rules)
          checks.push({
            file: module.moduleId,
            name: test.name,
            rules,
            ...(smoke ? { smoke } : {}),
            ...(needs ? { needs } : {}),
          });
      }
    }
    for (const error of result.unhandledErrors) errors.push(String((error as Error)?.message ?? error));
    return { checks: checks.sort((a, b) => a.file.localeCompare(b.file) || a.name.localeCompare(b.name)), errors };
  } finally {
    await vitest.close();
    rmSync(runDir, { recursive: true, force: true });
  }
}

/** The check files that declare each rule id. */
export function checkFilesByRule(checks: readonly DeclaredCheck[]): Map<string, string[]> {
  const byRule = new Map<string, string[]>();
  for (const check of checks) {
    for (const id of check.rules) {
      const files = byRule.get(id) ?? byRule.set(id, []).get(id)!;
      if (!files.includes(check.file)) files.push(check.file);
    }
  }
  return byRule;
}

/** The check files holding a check of a selected rule (`--only`): the files a narrowed run needs. */
export function filesForOnly(checks: readonly DeclaredCheck[], only: readonly string[]): string[] {
  return [...new Set(checks.filter((c) => c.rules.some((id) => selectedByOnly(id, only))).map((c) => c.file))];
}

/** What a check file needs to be imported: a complete context, for a target nobody contacts. */
function collectOnlyContext(runDir: string): KitContext {
  return {
    targetUrl: 'http://127.0.0.1:9',
    targetLabel: 'collecting checks',
    embedded: true,
    profile: loadBuiltinProfile('fake'),
    profileDeclared: true,
    tokens: { primary: 'collect-only' },
    budgets: REMOTE_BUDGETS,
    clockToleranceMs: 0,
    strict: false,
    seed: 0,
    runId: `collect-${process.pid}-${Date.now()}`,
    runDir,
    only: [],
  };
}
