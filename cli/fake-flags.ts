import type { FlagDecl } from '../kit/flags.js';

/** `notes-conformance fake`'s flags, declared once (parser, --help, the README's table). */
export const FAKE_FLAGS = [
  { name: 'port', value: 'N', help: ['port to listen on (default 8080; 0 picks a free one)'] },
  { name: 'host', value: 'ADDR', help: ['address to bind (default 127.0.0.1)'] },
  {
    name: 'profile',
    value: 'P',
    help: [
      'not-shown choices: fake (default), fake-divergent, hosted (the names public',
      'clients of the hosted service send), or a profile YAML file',
    ],
  },
  {
    name: 'token',
    value: 'T',
    multiple: true,
    help: [
      'create a user with this bearer token (repeatable; default: two random users).',
      'A token has 8 to 512 printable ASCII characters, no spaces; clients send it as',
      'Authorization: Bearer T',
    ],
  },
  {
    name: 'admin-token',
    value: 'T',
    help: ['token of the fixture API (default: random, printed; same rules as --token)'],
  },
  { name: 'quota', value: 'N', help: ['each user may create N notes, then quota_exceeded'] },
  { name: 'rate-limit', value: 'R/S', help: ['each user may send R requests per S seconds (default generous)'] },
  { name: 'seed', value: 'N', help: ['deterministic ids and request ids'] },
  { name: 'fault', value: 'NAME', multiple: true, help: ['start with a deliberate rule violation (repeatable)'] },
  {
    name: 'log',
    help: [
      'print one line per request to stdout: time, method, path with query, status,',
      "milliseconds, the user name and id of the request's token (never a token:",
      'tokens and access_token values read ***; every field is percent-escaped), a',
      "refusal's kind and the names unknown_fields: ignore dropped. Lines are dropped,",
      'and counted, while the reader does not keep up',
    ],
  },
  { name: 'no-cors', help: ['no CORS headers and no preflight answers (default: any Origin is allowed)'] },
  {
    name: 'data',
    value: 'FILE',
    help: [
      'create the collections and notes of a JSON or YAML file (arrays "collections" and',
      '"notes" of create bodies; notes link by collection_titles) for the first user',
    ],
  },
  {
    name: 'generate',
    value: 'N',
    help: ['create N realistic notes and N/50 collections for the first user (same --seed, same data)'],
  },
  {
    name: 'state',
    value: 'FILE',
    help: [
      'keep users, notes and collections in FILE: loaded at start (when it exists), every',
      'answered change journaled to FILE.journal at once, all saved to FILE on exit',
      '(SIGINT, SIGTERM, SIGHUP); one fake per FILE; --data and --generate apply only',
      'when FILE does not exist yet',
    ],
  },
  {
    name: 'client-report',
    value: 'FILE',
    help: [
      'write, when the fake stops, every rule of the catalogue its clients broke or relied',
      'on beyond the document (.json, .md or .html by extension; also served at any time',
      'on GET /__fake/client-report?format=json|md|html)',
    ],
  },
  { name: 'list-faults', help: ['print every fault and the rule it breaks, then exit'] },
  { name: 'help', short: 'h', help: ['this text'] },
] as const satisfies readonly FlagDecl[];
