import { didYouMean } from '../spec/did-you-mean.js';
import { KitError, UsageError } from '../spec/verdicts.js';

const SUBCOMMANDS = ['fake', 'matrix', 'profile', 'diff', 'rules', 'compare'];

/**
 * Entry point of the notes-conformance command: `fake`, `diff`, `matrix`, `profile`, `rules` and `compare`
 * subcommands, `--version`; flags alone run the kit. Whatever goes wrong ends in one line on
 * stderr, never a stack trace (NOTES_DEBUG=1 shows the stack of an unexpected error).
 */
export async function main(argv: string[]): Promise<number> {
  try {
    return await dispatch(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      // As written for people (a bad profile lists its problems one per line).
      process.stderr.write(`notes-conformance: ${error.message}\n`);
      return 2;
    }
    if (error instanceof KitError || (error as Error)?.name === 'TargetUnavailable') {
      process.stderr.write(`notes-conformance: the kit could not run: ${oneLine((error as Error).message)}\n`);
      return 2;
    }
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    process.stderr.write(
      `notes-conformance: unexpected error: ${oneLine(message)}${process.env.NOTES_DEBUG ? `\n${(error as Error)?.stack ?? ''}` : ' (NOTES_DEBUG=1 shows where)'}\n`,
    );
    return 2;
  }
}

async function dispatch(argv: string[]): Promise<number> {
  // --version anywhere before a `--`, for the kit or any subcommand.
  const flags = argv.indexOf('--') === -1 ? argv : argv.slice(0, argv.indexOf('--'));
  if (flags.includes('--version') || (!SUBCOMMANDS.includes(argv[0] ?? '') && flags.includes('-v'))) {
    const { kitVersion } = await import('../spec/version.js');
    process.stdout.write(`${kitVersion()}\n`);
    return 0;
  }
  if (argv[0] === 'fake') {
    // Loaded for this command only: the fake is about a hundred modules every other command,
    // a mistyped flag included, would load for nothing.
    const { fakeCommand } = await import('./fake-command.js');
    return await fakeCommand(argv.slice(1), {
      out: (line) => process.stdout.write(`${line}\n`),
      err: (line) => process.stderr.write(`${line}\n`),
      backlog: () => process.stdout.writableLength,
      // SIGHUP too: a closed terminal must not lose what --state has not folded into its file yet.
      untilStopped: () =>
        new Promise<void>((resolve) => {
          for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, resolve);
        }),
    });
  }
  if (argv[0] === 'matrix') {
    const { matrixCommand } = await import('./matrix-command.js');
    return await matrixCommand(argv.slice(1));
  }
  if (argv[0] === 'profile') {
    const { profileCommand } = await import('./profile-command.js');
    return await profileCommand(argv.slice(1), process.env, {
      out: (l) => process.stdout.write(`${l}\n`),
      err: (l) => process.stderr.write(`${l}\n`),
    });
  }
  if (argv[0] === 'rules') {
    const { rulesCommand } = await import('./rules-command.js');
    return rulesCommand(argv.slice(1), (text) => process.stdout.write(text));
  }
  if (argv[0] === 'compare') {
    const { compareCommand } = await import('./compare-command.js');
    return compareCommand(argv.slice(1), (text) => process.stdout.write(text));
  }
  if (argv[0] === 'diff') {
    const { diffCommand } = await import('./diff-command.js');
    return await diffCommand(
      argv.slice(1),
      process.env,
      (line) => process.stdout.write(`${line}\n`),
      (line) => process.stderr.write(`${line}\n`),
    );
  }
  // The run takes flags only: a first word that is no subcommand is most likely a mistyped one.
  if (argv[0] !== undefined && !argv[0].startsWith('-'))
    throw new UsageError(
      `unknown command ${argv[0]}${didYouMean(argv[0], SUBCOMMANDS)}; the commands are ${SUBCOMMANDS.join(', ')} (see notes-conformance --help)`,
    );
  const { runCommand } = await import('./run-command.js');
  return await runCommand(argv);
}

function oneLine(text: string): string {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .join(' ');
}
