import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../spec/paths.js';
import { documentedPages } from './doc-pages.js';

/**
 * The README's and docs' links are live: every relative link names a file that exists (and, with
 * `#anchor`, a heading of it), and every path in backticks under one of the repository's own
 * directories exists, so a moved or deleted file fails here, not in a reader's browser.
 */

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of withoutFences(text)) {
    const m = /^#{1,6}\s+(.*)$/.exec(line);
    if (!m) continue;
    const base = anchorOf(m[1] ?? '');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

function withoutFences(text: string): string[] {
  let fenced = false;
  return text.split('\n').filter((line) => {
    if (/^\s*```/.test(line)) fenced = !fenced;
    return !fenced && !/^\s*```/.test(line);
  });
}

/** The repository's own top-level directories: a backticked path under one of them must exist. */
const OWN_DIRS = new Set(
  readdirSync(packageRoot, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !['node_modules', 'dist', 'reports', '.git'].includes(e.name))
    .map((e) => e.name),
);

/** Whether a repository path exists; `*` in its last part matches within one name. */
function pathExists(path: string): boolean {
  const clean = path.replace(/\/$/, '');
  if (!clean.includes('*')) return existsSync(join(packageRoot, clean));
  const dir = dirname(clean);
  const pattern = new RegExp(
    `^${clean
      .slice(dir.length + 1)
      .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')}$`,
  );
  return existsSync(join(packageRoot, dir)) && readdirSync(join(packageRoot, dir)).some((name) => pattern.test(name));
}

interface Problem {
  page: string;
  line: number;
  problem: string;
}

function problemsOf(page: string, text: string, read: (path: string) => string | undefined): Problem[] {
  const problems: Problem[] = [];
  const lines = text.split('\n');
  let fenced = false;
  lines.forEach((line, i) => {
    if (/^\s*```/.test(line)) fenced = !fenced;
    if (fenced) return;
    for (const m of line.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1] ?? '';
      if (/^[a-z]+:/i.test(target)) continue;
      const [file = '', anchor] = target.split('#');
      const path = file === '' ? page : relative(packageRoot, join(packageRoot, dirname(page), file));
      const body = read(path);
      if (body === undefined && !existsSync(join(packageRoot, path))) {
        problems.push({ page, line: i + 1, problem: `links to ${target}: no such file ${path}` });
      } else if (anchor !== undefined && body !== undefined && !anchors(body).has(anchor)) {
        problems.push({ page, line: i + 1, problem: `links to ${target}: ${path} has no heading #${anchor}` });
      }
    }
    for (const m of line.replace(/\]\([^)]*\)/g, ']').matchAll(/`([^`\s]+)`/g)) {
      const path = m[1] ?? '';
      const top = path.split('/')[0] ?? '';
      if (!path.includes('/') || !OWN_DIRS.has(top) || /[<>{}$]/.test(path)) continue;
      if (!pathExists(path)) problems.push({ page, line: i + 1, problem: `names ${path}, which does not exist` });
    }
  });
  return problems;
}

function readPage(path: string): string | undefined {
  const full = join(packageRoot, path);
  return path.endsWith('.md') && existsSync(full) ? readFileSync(full, 'utf8') : undefined;
}

describe('documentation links', () => {
  it.each(documentedPages())('%s: every link and path is live', (page) => {
    expect(problemsOf(page, readFileSync(join(packageRoot, page), 'utf8'), readPage)).toEqual([]);
  });

  it('every page of docs/ and the benchmarks is linked from the README', () => {
    const readme = readFileSync(join(packageRoot, 'README.md'), 'utf8');
    const linked = new Set([...readme.matchAll(/\]\(([^)#\s]+)/g)].map((m) => m[1]));
    expect(documentedPages().filter((p) => p !== 'README.md' && !linked.has(p))).toEqual([]);
  });

  it('finds a stale link, a missing heading and a stale path', () => {
    const text = [
      'See [the fake](docs/no-such-page.md), [running](docs/running.md#no-such-heading) and',
      '`kit/no-such-file.ts`, but not `reports/out.json` or `notes-conformance/spec`.',
      '[Tiers](docs/running.md#tiers) and `kit/*.ts` are live.',
    ].join('\n');
    expect(problemsOf('README.md', text, readPage).map((p) => p.problem)).toEqual([
      'links to docs/no-such-page.md: no such file docs/no-such-page.md',
      'links to docs/running.md#no-such-heading: docs/running.md has no heading #no-such-heading',
      'names kit/no-such-file.ts, which does not exist',
    ]);
  });

  it('makes the anchors GitHub makes', () => {
    expect(anchorOf('`--state FILE` is durable')).toBe('--state-file-is-durable');
    expect(anchorOf('Profiles: what the document does not show')).toBe('profiles-what-the-document-does-not-show');
    expect(anchorOf('Dependencies, and why')).toBe('dependencies-and-why');
  });
});
