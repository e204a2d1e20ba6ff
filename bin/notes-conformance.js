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
process.exitCode = await main(process.argv.slice(2));
// The command has answered: whatever it started and could not close must not hold the process
// (after a signal, vitest waits 60 s for a worker the signal already ended).
setTimeout(() => process.exit(), 500).unref();
