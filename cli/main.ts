import { fakeCommand } from './fake-command.js';
import { UsageError } from '../suites/harness/errors.js';

/** Entry point of the notes-conformance command: `fake`, `diff` and `matrix` subcommands, `--version`; anything else runs the kit. */
export async function main(argv: string[]): Promise<number> {
  try {
    if (argv[0] === '--version' || argv[0] === '-v') {
      const { kitVersion } = await import('../spec/version.js');
      process.stdout.write(`${kitVersion()}\n`);
      return 0;
    }
    if (argv[0] === 'fake') {
      return await fakeCommand(argv.slice(1), {
        out: (line) => process.stdout.write(`${line}\n`),
        untilStopped: () => new Promise<void>((resolve) => {
          process.once('SIGINT', resolve);
          process.once('SIGTERM', resolve);
        }),
      });
    }
    if (argv[0] === 'matrix') {
      const { matrixCommand } = await import('./matrix-command.js');
      return await matrixCommand(argv.slice(1));
    }
    if (argv[0] === 'profile') {
      const { profileCommand } = await import('./profile-command.js');
      return await profileCommand(argv.slice(1), process.env, { out: (l) => process.stdout.write(`${l}\n`), err: (l) => process.stderr.write(`${l}\n`) });
    }
    if (argv[0] === 'diff') {
      const { diffCommand } = await import('./diff-command.js');
      return await diffCommand(argv.slice(1), process.env, (line) => process.stdout.write(`${line}\n`));
    }
    const { runCommand } = await import('./run-command.js');
    return await runCommand(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`notes-conformance: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}
