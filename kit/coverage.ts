import '../spec/check-meta.js';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createVitest, type Vitest } from 'vitest/node';
import { packageRoot } from '../spec/paths.js';
import { loadBuiltinProfile } from '../spec/profile.js';
import { selectedByOnly } from '../spec/rules.js';
import { keepCached, userCacheDir } from '../spec/user-cache.js';
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
  const key = checkSourcesKey();
  const known = remembered(key);
  if (known) return known;
  const collected = await collectAfresh(wrap);
  if (collected.errors.length === 0) remember(key, collected);
  return collected;
}

async function collectAfresh(wrap: (create: () => Promise<Vitest>) => Promise<Vitest>): Promise<CollectedChecks> {
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

/**
 * Collecting imports every check file in a vitest worker: about 2 s, paid by every run that shows
 * progress or takes --only. What it finds depends only on the sources the check files are made of
 * (and on where they are), so it is kept by a hash of them: in the process, and on the machine in a
 * directory of the user's own (spec/user-cache.ts). A file that failed to collect is not kept.
 */
const SOURCE_DIRS = ['suites', 'kit', 'spec', 'fake'];
const SOURCE_FILE = /\.(ts|yaml|json)$/;
/** Changes with the shape of DeclaredCheck. */
const COLLECTED_FORMAT = 1;

let inProcess: { key: string; checks: DeclaredCheck[] } | undefined;

export function checkSourcesKey(root = packageRoot): string {
  const hash = createHash('sha256').update(`${COLLECTED_FORMAT}\0${root}\0`);
  for (const file of ['package.json', 'package-lock.json', 'vitest.config.ts'])
    hash.update(`${file}\0${readIfThere(join(root, file))}\0`);
  for (const dir of SOURCE_DIRS) {
    let names: string[];
    try {
      names = (readdirSync(join(root, dir), { recursive: true }) as string[]).filter((n) => SOURCE_FILE.test(n)).sort();
    } catch {
      continue;
    }
    for (const name of names) hash.update(`${dir}/${name}\0${readIfThere(join(root, dir, name))}\0`);
  }
  return hash.digest('hex');
}

function readIfThere(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

function remembered(key: string): CollectedChecks | undefined {
  if (inProcess?.key === key) return { checks: inProcess.checks.map((c) => ({ ...c })), errors: [] };
  const dir = userCacheDir('collected-checks');
  if (!dir) return undefined;
  try {
    const checks = JSON.parse(readFileSync(join(dir, `${key}.json`), 'utf8')) as DeclaredCheck[];
    if (!Array.isArray(checks) || checks.some((c) => typeof c?.file !== 'string' || !Array.isArray(c.rules)))
      return undefined;
    inProcess = { key, checks };
    return { checks: checks.map((c) => ({ ...c })), errors: [] };
  } catch {
    return undefined; // not collected on this machine yet, or unreadable: collect again
  }
}

function remember(key: string, collected: CollectedChecks): void {
  inProcess = { key, checks: collected.checks.map((c) => ({ ...c })) };
  const dir = userCacheDir('collected-checks');
  if (!dir) return;
  keepCached(join(dir, `${key}.json`), JSON.stringify(collected.checks));
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
