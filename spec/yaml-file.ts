import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { threadId } from 'node:worker_threads';
import { parseDocument } from 'yaml';

/**
 * A directory private to one kit process and its vitest workers (kit/vitest-run.ts makes it)
 * where parsed YAML files are kept by the hash of their text: every worker of the fault matrix
 * would otherwise parse rules.yaml and openapi.yaml again (half a second each time).
 */
export const PARSED_YAML_CACHE_ENV = 'NOTES_CONFORMANCE_PARSED_YAML';

/** Parses a YAML file strictly; a syntax error names the file, line and column. */
export function readYamlFile(path: string): unknown {
  const text = readFileSync(path, 'utf8');
  const dir = process.env[PARSED_YAML_CACHE_ENV];
  if (!dir) return parseYamlText(text, path);
  const cached = join(dir, `${createHash('sha256').update(text).digest('hex')}.v8`);
  try {
    return deserialize(readFileSync(cached));
  } catch {
    // Not parsed yet in this run (or the directory is gone): parse, and keep it for the others.
  }
  const value = parseYamlText(text, path);
  try {
    // Written whole, then renamed: a worker reading at the same time sees all of it or nothing.
    const partial = `${cached}.${process.pid}-${threadId}.tmp`;
    writeFileSync(partial, serialize(value));
    renameSync(partial, cached);
  } catch {
    // A cache only: without it the next reader parses again.
  }
  return value;
}

export function parseYamlText(text: string, source: string): unknown {
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    const first = doc.errors[0]!;
    const pos = first.linePos?.[0];
    const where = pos ? `${source}:${pos.line}:${pos.col}` : source;
    throw new SpecFileError(`${where}: invalid YAML: ${first.message.split('\n')[0]}`);
  }
  return doc.toJS({ maxAliasCount: 100 });
}

export class SpecFileError extends Error {
  override name = 'SpecFileError';
}
