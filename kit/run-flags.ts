import type { FlagDecl } from './flags.js';

/**
 * The run command's flags, each declared once: the parser's options, `--help`, the environment
 * variables and the table of docs/cli.md are all made from this list (kit/flags.ts; a test keeps
 * the table current).
 */
export const RUN_FLAGS = [
  {
    name: 'target',
    value: 'URL',
    env: ['NOTES_TARGET_URL'],
    group: 'Target',
    help: ['base URL of the server under test'],
  },
  {
    name: 'image',
    value: 'NAME',
    env: ['NOTES_TARGET_IMAGE'],
    group: 'Target',
    help: [
      'start the server from a Docker image with testcontainers, on the host network, with',
      'PORT and HOST telling it where to listen',
    ],
  },
  {
    name: 'image-port',
    value: 'N',
    env: ['NOTES_IMAGE_PORT'],
    group: 'Target',
    help: ['the port to give it (default: a free one)'],
  },
  { name: 'token', value: 'T', env: ['NOTES_TOKEN'], group: 'Target', help: ['bearer token of the main test user'] },
  {
    name: 'secondary-token',
    value: 'T',
    env: ['NOTES_SECONDARY_TOKEN', 'NOTES_TOKEN_SECONDARY'],
    group: 'Target',
    help: ["a second user's token, for isolation checks"],
  },
  {
    name: 'fixtures-token',
    value: 'T',
    env: ['NOTES_FIXTURES_TOKEN'],
    group: 'Target',
    help: [
      "admin token of the target's fixture API, if its profile declares one (a profile may name",
      'another variable: fixtures.admin_token_env)',
    ],
  },
  {
    name: 'profile',
    value: 'FILE',
    env: ['NOTES_PROFILE'],
    group: 'Target',
    help: [
      'the target\'s choices where the API document says "not shown";',
      "or a built-in: hosted (the hosted service's names), fake, fake-divergent",
    ],
  },
  {
    name: 'only',
    value: 'ID',
    multiple: true,
    env: ['NOTES_ONLY'],
    envList: true,
    group: 'Run',
    help: ['run only the checks of a rule id or id prefix such as notes.create (repeatable)'],
  },
  {
    name: 'seed',
    value: 'N',
    env: ['NOTES_SEED'],
    group: 'Run',
    help: ['replay property and model-based runs with this seed'],
  },
  {
    name: 'tier',
    value: 'smoke|full',
    env: ['NOTES_TIER'],
    group: 'Run',
    help: ['smoke: at most 100 requests, at least one rule per area, for every deploy; full (default): every check'],
  },
  {
    name: 'max-notes',
    value: 'N',
    env: ['NOTES_MAX_NOTES'],
    group: 'Run',
    help: [
      "create at most N notes, fixture users' included (default for a remote target: 150 full, 20 smoke);",
      'checks that need more are skipped with the reason. The run prints its caps before the first request',
    ],
  },
  {
    name: 'workers',
    value: 'N',
    env: ['NOTES_WORKERS'],
    group: 'Run',
    help: [
      'check workers against the embedded fake, each with its own pair of test users: 1 or 2 (default 2,',
      '1 on a one-core machine). A target or image always gets one: one client paces its requests',
    ],
  },
  {
    name: 'fake-profile',
    value: 'P',
    env: ['NOTES_FAKE_PROFILE'],
    group: 'Run',
    help: ["the embedded fake's profile: fake (default), fake-divergent, hosted or a file"],
  },
  {
    name: 'fake-fault',
    value: 'NAME',
    multiple: true,
    env: ['NOTES_FAKE_FAULTS'],
    envList: true,
    group: 'Run',
    help: ['start the embedded fake with a fault (repeatable; for proving the kit)'],
  },
  {
    name: 'requests-per-second',
    value: 'N',
    env: ['NOTES_REQUESTS_PER_SECOND'],
    group: 'Run',
    help: [
      'pace requests at most this fast (default 1.5 for a remote target, none for the embedded fake;',
      'overrides the profile)',
    ],
  },
  {
    name: 'request-budget',
    value: 'N',
    env: ['NOTES_REQUEST_BUDGET'],
    group: 'Run',
    help: ['stop sending after N requests (default 1500 for a remote target; overrides the profile)'],
  },
  {
    name: 'request-timeout',
    value: 'MS',
    env: ['NOTES_REQUEST_TIMEOUT_MS'],
    group: 'Run',
    help: ['give up on one request after MS milliseconds (default 10000; overrides the profile)'],
  },
  {
    name: 'max-duration',
    value: 'D',
    env: ['NOTES_MAX_DURATION'],
    group: 'Run',
    help: [
      'stop sending requests after D (90s, 20m, 1h; plain number: seconds); rate-limit waits',
      'that would end later are not waited out (default 30m for a remote target, none for the',
      'embedded fake). A single rate-limit wait is capped by budgets.max_rate_limit_wait_ms (60 s)',
    ],
  },
  {
    name: 'json',
    value: 'FILE',
    env: ['NOTES_REPORT_JSON'],
    group: 'Reports',
    help: ['the whole report as JSON (each failing check with a curl repro)'],
  },
  {
    name: 'junit',
    value: 'FILE',
    env: ['NOTES_REPORT_JUNIT'],
    group: 'Reports',
    help: ['JUnit XML: one test case per rule; failures are exactly what fails the run'],
  },
  {
    name: 'markdown',
    value: 'FILE',
    env: ['NOTES_REPORT_MARKDOWN'],
    group: 'Reports',
    help: ['for a pull request or $GITHUB_STEP_SUMMARY (at most 60,000 characters)'],
  },
  {
    name: 'html',
    value: 'FILE',
    env: ['NOTES_REPORT_HTML'],
    group: 'Reports',
    help: ['one self-contained page: failures first, a filter, evidence with copy buttons'],
  },
  {
    name: 'html-spec',
    value: 'FILE',
    env: ['NOTES_REPORT_HTML_SPEC'],
    group: 'Reports',
    help: ["the API document with each requirement marked by its rules' verdicts"],
  },
  {
    name: 'har',
    value: 'FILE',
    env: ['NOTES_REPORT_HAR'],
    group: 'Reports',
    help: [
      "every exchange of the run as HAR 1.2 (tokens redacted), for a browser's developer tools",
      '(report paths are checked before anything is sent; missing directories are created)',
    ],
  },
  {
    name: 'quiet',
    group: 'Reports',
    help: ['print only the headline, the failing rule ids, the exit line and the seed'],
  },
  { name: 'help', short: 'h', group: 'Reports', help: ["this text;  -v, --version  print the kit's version"] },
] as const satisfies readonly FlagDecl[];

export type RunFlagName = (typeof RUN_FLAGS)[number]['name'];
