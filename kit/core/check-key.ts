import { relative, sep } from 'node:path';
import { packageRoot } from '../../spec/paths.js';

/**
 * A check's key in the run's plan and the note-cost table: `suites/notes/x.check.ts::description`
 * (the file relative to the package root; the test name without its ` [rule ids]`).
 */
export function checkKey(file: string, name: string): string {
  const path = file.startsWith('/') ? relative(packageRoot, file) : file;
  return `${path.split(sep).join('/')}::${name.replace(/ \[[^\]]*\]$/, '')}`;
}
