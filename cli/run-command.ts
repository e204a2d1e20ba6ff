import { RUN_USAGE, wantsHelp } from '../kit/config.js';
import { runKit } from '../kit/run.js';

/** notes-conformance [options]: runs every check against the target and reports per rule (kit/run.ts). */
export async function runCommand(argv: string[]): Promise<number> {
  if (wantsHelp(argv)) {
    process.stdout.write(`${RUN_USAGE}\n`);
    return 0;
  }
  const { exitCode } = await runKit(argv, process.env, (text) => process.stdout.write(text));
  return exitCode;
}
