import { type ParseArgsConfig, parseArgs } from 'node:util';
import { withNegativeValues } from '../kit/flags.js';
import { flagProblem } from '../spec/did-you-mean.js';
import { UsageError } from '../spec/verdicts.js';

type Options = NonNullable<ParseArgsConfig['options']>;
type Values<O extends Options> = ReturnType<typeof parseArgs<{ args: string[]; options: O; strict: true }>>['values'];

/**
 * A subcommand's flags, strictly: an unknown flag or a missing value is one line naming the
 * subcommand's --help (exit 2), never node's multi-line message or a stack trace.
 */
export function parseFlags<const O extends Options>(args: string[], options: O, command: string): Values<O> {
  try {
    return parseArgs({ args: withNegativeValues(args, options as never), options, strict: true }).values;
  } catch (error) {
    throw new UsageError(`${flagProblem(error, Object.keys(options))} (see notes-conformance ${command} --help)`);
  }
}
