import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../spec/paths.js';

/**
 * "Adding a rule is three files" (docs/contributing.md), proved on a temporary copy of the
 * package: a throwaway rule goes into the catalogue, a clause of the one prediction
 * (kit/core/behaviour/views.ts) and a fault that breaks it (fake/faults/); nothing else is
 * touched, no list kept by hand. The fault matrix kills the fault on that rule (the run-wide
 * oracle judges every check's answers, so no check had to name it), and a clean run passes it.
 */
const RULE = 'notes.read.version-at-least-one';
const FAULT = 'notes.read.version-zero';

const EDITS: ReadonlyArray<{ file: string; anchor: string; add: string; before?: true }> = [
  {
    file: 'spec/rules.yaml',
    anchor: '  - id: notes.read.response-fields\n',
    before: true,
    add: `  - id: ${RULE}
    section: "2. Resources and their fields / Note"
    quote: "current note content document version"
    statement: A read answers the note's version, an integer of at least 1 (a throwaway rule of the three-file test).
    level: documented
    since: 2025-06-03
    operations: [getNote]

`,
  },
  {
    file: 'kit/core/behaviour/views.ts',
    anchor: '  // "trashed_at holds the time it was trashed": the server time of the trash.\n',
    before: true,
    add: `  if (view === 'read') out.push({ rule: '${RULE}', field: 'version', is: { integerAtLeast: 1 }, from: 'a version' });\n`,
  },
  {
    file: 'fake/faults/notes-lifecycle.ts',
    anchor: "  'notes.read.trashed-without-trashed-at': {\n",
    before: true,
    add: `  '${FAULT}': {
    rules: ['${RULE}'],
    does: 'a read answers version 0',
    hooks: after('getNote', (_ctx, _call, view) => ({ ...view, version: 0 })),
  },
`,
  },
];

const copies: string[] = [];
afterAll(() => {
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
});

/** The package's tracked files, copied; its node_modules linked. */
function copyPackage(): string {
  const dir = mkdtempSync(join(tmpdir(), 'notes-conformance-three-files-'));
  copies.push(dir);
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: packageRoot,
    encoding: 'utf8',
  })
    .split('\0')
    .filter(Boolean);
  for (const file of files) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    try {
      cpSync(join(packageRoot, file), join(dir, file));
    } catch {
      // A file deleted in the work tree but still in the index.
    }
  }
  symlinkSync(join(packageRoot, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

function node(dir: string, args: string[]): string {
  try {
    return execFileSync(process.execPath, args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string };
    return `${e.stdout ?? ''}${e.stderr ?? ''}`;
  }
}

describe('adding a rule', () => {
  it('takes three files: the catalogue entry, a prediction clause and a fault; the matrix kills the fault', () => {
    const dir = copyPackage();
    for (const edit of EDITS) {
      const path = join(dir, edit.file);
      const text = readFileSync(path, 'utf8');
      expect(text.includes(edit.anchor), `${edit.file} still has the anchor the test edits at`).toBe(true);
      writeFileSync(path, text.replace(edit.anchor, `${edit.add}${edit.anchor}`));
    }
    // The copy's build (types are not checked: the generated RuleId union is not regenerated here).
    execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json', '--noCheck'], {
      cwd: dir,
      stdio: 'inherit',
    });
    const matrix = node(dir, ['bin/notes-conformance.js', 'matrix', '--fault', FAULT, '--no-baseline']);
    expect(matrix).toMatch(new RegExp(`killed +${FAULT.replaceAll('.', '\\.')} -> .*${RULE}:fail`));
    expect(matrix).toMatch(/1 of 1 faults killed/);
    // The clean fake passes it: the prediction holds of every read the run made.
    node(dir, ['bin/notes-conformance.js', '--quiet', '--json', join(dir, 'clean.json')]);
    const report = JSON.parse(readFileSync(join(dir, 'clean.json'), 'utf8')) as {
      rules: Array<{ id: string; verdict: string; reason: string }>;
    };
    const rule = report.rules.find((r) => r.id === RULE);
    expect(rule && `${rule.verdict} ${rule.reason}`).toBe('pass ');
  }, 300_000);
});
