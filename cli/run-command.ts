import { UsageError } from './usage-error.js';

export async function runCommand(_argv: string[]): Promise<number> {
  throw new UsageError('the conformance run is not built yet (issue 4); `notes-conformance fake` serves the fake');
}
