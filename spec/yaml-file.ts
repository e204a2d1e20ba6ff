import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { parseDocument } from 'yaml';
import { keepCached, userCacheDir } from './user-cache.js';

/**
 * A directory private to one kit process and its vitest workers (kit/vitest-run.ts makes it)
 * where parsed YAML files are kept by the hash of their text: every worker of the fault matrix
 * would otherwise parse rules.yaml and openapi.yaml again (half a second each time).
 */
export const PARSED_YAML_CACHE_ENV = 'NOTES_CONFORMANCE_PARSED_YAML';

/** A check of a file's contents (a schema, say) that throws when they are not what is expected. */
export interface ContentCheck {
  /** Names the check in the cache: the same text passes it again without running it. */
  readonly name: string;
  readonly run: (data: unknown) => void;
}

/**
 * Parses a YAML file strictly; a syntax error names the file, line and column. With `check`, the
 * parsed contents must pass it (it throws otherwise); a text that passed it once in this run
 * (PARSED_YAML_CACHE_ENV) is not checked again.
 */
export function readYamlFile(path: string, check?: ContentCheck): unknown {
  const text = readFileSync(path, 'utf8');
  const dir = process.env[PARSED_YAML_CACHE_ENV];
  const hash = createHash('sha256').update(text).digest('hex');
  const parse = () => {
    const value = parsedOnThisMachine(text, path, hash);
    check?.run(value);
    return value;
  };
  const name = `${hash}${check ? `.${check.name}` : ''}.v8`;
  if (!dir) {
    // Read before the run made its directory (a module that loads the rules on import): kept
    // here, and handed to the directory when it is made (keepParsedYamlIn).
    const value = parse();
    parsedBeforeDir.set(name, value);
    return value;
  }
  try {
    return deserialize(readFileSync(join(dir, name)));
  } catch {
    // Not parsed yet in this run (or the directory is gone): parse, and keep it for the others.
  }
  const value = parse();
  keep(dir, name, value);
  return value;
}

const parsedBeforeDir = new Map<string, unknown>();

const YAML_VERSION = (createRequire(import.meta.url)('yaml/package.json') as { version: string }).version;
/** Changes with parseYamlText's options, which shape the parse as much as the text does. */
const PARSE_FORMAT = 1;

/**
 * The parse of a text as this machine last made it: parsing rules.yaml and openapi.yaml costs
 * about 0.3 s each, at the start of every run and of its worker. Only the parse is kept (a pure
 * function of the text, the yaml version and PARSE_FORMAT), never a check's result, which the
 * code checking it may change. The directory is the user's own (0700, verified): another account could
 * otherwise plant a parse that rewrites the rules.
 */
function parsedOnThisMachine(text: string, path: string, hash: string): unknown {
  const dir = userCacheDir('parsed-yaml');
  const file = dir && join(dir, `${hash}.yaml-${YAML_VERSION}.f${PARSE_FORMAT}.v8`);
  if (file) {
    try {
      return deserialize(readFileSync(file));
    } catch {
      // Not parsed on this machine yet, or unreadable: parse again.
    }
  }
  const value = parseYamlText(text, path);
  if (dir && file) keep(dir, file.slice(dir.length + 1), value);
  return value;
}

/** Makes `dir` the process's parsed-YAML directory, with what the process parsed before it existed. */
export function keepParsedYamlIn(dir: string): void {
  process.env[PARSED_YAML_CACHE_ENV] = dir;
  for (const [name, value] of parsedBeforeDir) keep(dir, name, value);
  parsedBeforeDir.clear();
}

function keep(dir: string, name: string, value: unknown): void {
  keepCached(join(dir, name), serialize(value));
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
