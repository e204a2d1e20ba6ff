import type { FlagDecl } from '../kit/flags.js';

/** `notes-conformance profile init`'s flags, declared once (parser, --help, the table of docs/cli.md). */
export const PROFILE_INIT_FLAGS = [
  { name: 'target', value: 'URL', env: ['NOTES_TARGET_URL'], help: ['base URL of the server'] },
  { name: 'token', value: 'T', env: ['NOTES_TOKEN'], help: ['bearer token of a test user'] },
  {
    name: 'secondary-token',
    value: 'T',
    env: ['NOTES_SECONDARY_TOKEN'],
    help: ["a second user's token, to tell forbidden from not found"],
  },
  { name: 'out', value: 'FILE', help: ['where to write the profile'] },
  { name: 'force', help: ['overwrite FILE if it exists'] },
  { name: 'name', value: 'NAME', help: ['the profile\'s name (default: "inferred from HOST")'] },
  { name: 'requests-per-second', value: 'N', help: ['pace requests at most this fast (default 1.5)'] },
  { name: 'request-timeout', value: 'MS', help: ['give up on one request after MS milliseconds (default 10000)'] },
  { name: 'help', short: 'h', help: ['this text'] },
] as const satisfies readonly FlagDecl[];
