import type { FlagDecl } from '../kit/flags.js';

/** `notes-conformance diff`'s flags, declared once (parser, --help, the table of docs/cli.md). */
export const DIFF_FLAGS = [
  {
    name: 'target',
    value: 'URL',
    env: ['NOTES_TARGET_URL'],
    help: ['the server under test; default: an embedded fake'],
  },
  { name: 'token', value: 'T', env: ['NOTES_TOKEN'], help: ['its bearer token'] },
  {
    name: 'profile',
    value: 'P',
    env: ['NOTES_PROFILE'],
    help: ["the target's profile: a YAML file, fake or fake-divergent"],
  },
  {
    name: 'fake-fault',
    value: 'NAME',
    multiple: true,
    help: ['start the embedded target with a fault (repeatable; no --target)'],
  },
  {
    name: 'runs',
    value: 'N',
    help: ["sequences to run (default: the profile's model_runs; 30 embedded, 2 remote)"],
  },
  { name: 'max-ops', value: 'N', help: ['operations per sequence at most (default 25 embedded, 12 remote)'] },
  { name: 'seed', value: 'N', help: ['fast-check seed'] },
  { name: 'path', value: 'P', help: ['with --seed, replays one reported sequence'] },
  { name: 'help', short: 'h', help: ['this text'] },
] as const satisfies readonly FlagDecl[];
