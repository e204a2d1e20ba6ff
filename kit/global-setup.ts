import type { TestProject } from 'vitest/node';
import { readKitConfig } from './config.js';
import { startRun } from './start.js';

/**
 * For `npx vitest --project conformance`: the CLI provides the run itself; run directly, this
 * starts one from the environment (the embedded fake when NOTES_TARGET_URL is unset).
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (project.getProvidedContext().kit) return undefined;
  const run = await startRun(readKitConfig([], process.env));
  project.provide('kit', run.context);
  return async () => {
    const totals = await run.finish();
    console.log(`notes-conformance: ${totals.requests} requests, ${totals.leftovers} resource(s) left behind`);
  };
}
