import { readFileSync } from 'node:fs';
import { parseDocument } from 'yaml';

/** Parses a YAML file strictly; a syntax error names the file, line and column. */
export function readYamlFile(path: string): unknown {
  return parseYamlText(readFileSync(path, 'utf8'), path);
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
