import type { FlagDecl } from '../kit/flags.js';

/** `notes-conformance matrix`'s flags, declared once (parser, --help, the table of docs/cli.md). */
export const MATRIX_FLAGS = [
  {
    name: 'fault',
    value: 'NAME',
    multiple: true,
    help: ['only faults with this name or name prefix (repeatable; see notes-conformance fake --list-faults)'],
  },
  {
    name: 'shard',
    value: 'I/N',
    help: ['only the I-th of N equal shares of the faults (to spread the matrix over processes)'],
  },
  { name: 'no-baseline', help: ['do not run the clean fake first (assume every rule passes on it)'] },
  { name: 'json', value: 'FILE', help: ['write the rows (fault, rules, verdicts) as JSON'] },
  { name: 'help', short: 'h', help: ['this text'] },
] as const satisfies readonly FlagDecl[];
