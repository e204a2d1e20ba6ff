#!/usr/bin/env node
// The published entry point: runs the compiled CLI (npm run build, done by `prepare` on install).
import { existsSync } from 'node:fs';

// A closed pipe (| head) ends the output, not the process with a stack trace.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

const entry = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('notes-conformance: not built yet; run `npm run build` (npm ci does it through prepare)\n');
  process.exit(2);
}
const { main } = await import(entry.href);
const status = await main(process.argv.slice(2));
process.exitCode = status;
// The command has answered, and its status stands: vitest, wound down early after a signal, can
// still set process.exitCode = 1 later (its check of unhandled errors; a run that printed "exit
// 143" ended 1). Only a signal's own status (128 + n, from the run's listener) may replace it.
process.on('exit', () => {
  if (!(Number(process.exitCode) > 128)) process.exitCode = status;
});
// The command has answered: whatever it started and could not close must not hold the process
// (after a signal, vitest waits 60 s for a worker the signal already ended).
setTimeout(() => process.exit(), 500).unref();
