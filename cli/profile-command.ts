import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { constants } from 'node:os';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { environmentHelp, flagOrEnv, flagsHelp, parseOptions, withNegativeValues } from '../kit/flags.js';
import { isObserved } from '../kit/profile-init/findings.js';
import { type Inference, inferProfile, ProbeStopped } from '../kit/profile-init/infer.js';
import { MAX_REQUESTS } from '../kit/profile-init/session.js';
import { didYouMean, flagProblem } from '../spec/did-you-mean.js';
import { UsageError } from '../spec/verdicts.js';
import { PROFILE_INIT_FLAGS } from './profile-flags.js';

export const PROFILE_USAGE = `Usage: notes-conformance profile init --target URL --token T [--secondary-token T2] --out FILE [options]

Probes the target in at most ${MAX_REQUESTS} requests and writes a commented YAML profile with what it observed:
refusal statuses (the cursor mismatch's too), where the error body keeps the kind and the message, title
derivation, list order, rate-limit header names, the timestamp precision, unknown_fields, and the names and
endpoints the document does not show: each candidate (the shipped profiles' names, then common conventions)
is kept only when its effect on the probe's own data confirms it (a filter that filters, a cursor that
advances, content that appears, a note restored). What could not be confirmed is a commented placeholder
with the reason. Every note and collection the probe creates is deleted again, also when a step fails or
the probe is interrupted.

${flagsHelp(PROFILE_INIT_FLAGS)}

Environment (a flag wins over its variable):
${environmentHelp(PROFILE_INIT_FLAGS)}

Exit status: 0 the profile is written and nothing was left behind; 1 it is written but some notes the
probe created could not be deleted (their ids are printed); 2 bad flags, a target that is unreachable
or does not answer like the API, or a probe that could not finish (nothing is written); 130/143
interrupted (after the cleanup; nothing is written).`;

type Env = Readonly<Record<string, string | undefined>>;
export interface ProfileIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

const SEE_HELP = '(see notes-conformance profile init --help)';

interface InitSettings {
  target: string;
  token: string;
  secondaryToken?: string;
  out: string;
  name?: string;
  requestsPerSecond: number;
  timeoutMs: number;
}

/** notes-conformance profile init: infers a target profile by probing the target. */
export async function profileCommand(argv: readonly string[], env: Env, io: ProfileIo): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === undefined) throw new UsageError(`profile: give a subcommand: init ${SEE_HELP}`);
  if (sub === '--help' || sub === '-h' || (sub === 'init' && (rest.includes('--help') || rest.includes('-h')))) {
    io.out(PROFILE_USAGE);
    return 0;
  }
  if (sub !== 'init')
    throw new UsageError(
      `profile: unknown subcommand ${sub}${didYouMean(sub, ['init'])}; the one there is: init ${SEE_HELP}`,
    );
  const settings = readSettings(rest, env);
  return init(settings, io);
}

const INIT_OPTIONS = parseOptions(PROFILE_INIT_FLAGS);

function parse(argv: readonly string[]) {
  return parseArgs({
    args: withNegativeValues(argv, INIT_OPTIONS),
    strict: true,
    allowPositionals: false,
    options: INIT_OPTIONS,
  });
}

function readSettings(argv: readonly string[], env: Env): InitSettings {
  let values: ReturnType<typeof parse>['values'];
  try {
    ({ values } = parse(argv));
  } catch (error) {
    throw new UsageError(`profile init: ${flagProblem(error, Object.keys(INIT_OPTIONS))} ${SEE_HELP}`);
  }
  const pick = (name: string, given: unknown) => flagOrEnv(PROFILE_INIT_FLAGS, name, given, env);
  const target = pick('target', values.target);
  const token = pick('token', values.token);
  const secondaryToken = pick('secondary-token', values['secondary-token']);
  if (!target) throw new UsageError(`profile init: give the target's base URL: --target URL ${SEE_HELP}`);
  if (!token) throw new UsageError(`profile init: give a test user's token: --token T ${SEE_HELP}`);
  if (!values.out) throw new UsageError(`profile init: give the file to write: --out FILE ${SEE_HELP}`);
  checkTarget(target);
  const out = resolve(values.out);
  if (existsSync(out) && statSync(out).isDirectory())
    throw new UsageError(`profile init: --out ${values.out} is a directory`);
  if (existsSync(out) && !values.force)
    throw new UsageError(`profile init: ${values.out} exists; pass --force to overwrite it`);
  if (secondaryToken !== undefined && secondaryToken === token)
    throw new UsageError("profile init: --secondary-token must be another user's token than --token");
  return {
    target: target.replace(/\/+$/, ''),
    token,
    ...(secondaryToken ? { secondaryToken } : {}),
    out,
    ...(values.name ? { name: values.name } : {}),
    requestsPerSecond: positive('requests-per-second', values['requests-per-second'], false) ?? 1.5,
    timeoutMs: positive('request-timeout', values['request-timeout'], true) ?? 10_000,
  };
}

function checkTarget(target: string): void {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw new UsageError(`profile init: --target must be an absolute http(s) URL (got ${target})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`profile init: --target must be http or https (got ${url.protocol})`);
  if (url.username || url.password)
    throw new UsageError('profile init: --target must not carry credentials; use --token');
}

function positive(flag: string, raw: string | undefined, integer: boolean): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw) || !(n > 0) || (integer && !Number.isInteger(n))) {
    throw new UsageError(`profile init: --${flag} must be a positive ${integer ? 'integer' : 'number'} (got ${raw})`);
  }
  return n;
}

/**
 * Runs the probe with Ctrl-C and SIGTERM turned into a stop between requests: the probe then
 * deletes what it created, and only then does the command end (a second signal does not cut the
 * cleanup short).
 */
async function init(settings: InitSettings, io: ProfileIo): Promise<number> {
  mkdirSync(dirname(settings.out), { recursive: true });
  const stop = new AbortController();
  let received: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (received) {
      io.err(`notes-conformance: still deleting what the probe created (${signal} ignored)`);
      return;
    }
    received = signal;
    io.err(
      `notes-conformance: ${signal === 'SIGINT' ? 'interrupted' : `${signal} received`}; deleting what the probe created...`,
    );
    stop.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  let result: Inference;
  try {
    result = await inferProfile({
      target: settings.target,
      token: settings.token,
      ...(settings.secondaryToken ? { secondaryToken: settings.secondaryToken } : {}),
      ...(settings.name ? { name: settings.name } : {}),
      requestsPerSecond: settings.requestsPerSecond,
      timeoutMs: settings.timeoutMs,
      signal: stop.signal,
    });
  } catch (error) {
    if (!(error instanceof ProbeStopped)) throw error;
    const { left } = error.cleanup;
    const cleaned = `deleted ${deletedWords(error.cleanup)} it had created${left.length > 0 ? `; could not delete ${left.join(', ')}` : ''}`;
    io.err(
      `notes-conformance: profile init ${error.message}; ${cleaned} (${error.requests} requests); nothing written`,
    );
    return received ? 128 + constants.signals[received] : 2;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  if (received) {
    io.err(
      `notes-conformance: profile init interrupted; deleted ${deletedWords(result.cleanup)} it had created; nothing written`,
    );
    return 128 + constants.signals[received];
  }
  writeFileSync(settings.out, result.yaml);
  // One line, with how many keys are left to fill in and what the target refused, if anything.
  const refused = result.stopped.length > 0 ? `; the target refused: ${result.stopped.join('; ')}` : '';
  io.out(
    `notes-conformance: wrote ${settings.out} in ${result.requests} requests: ${summary(result)}; ` +
      `${result.missing} key(s) not observed, commented in the file${refused}`,
  );
  if (result.cleanup.left.length > 0) {
    io.err(
      `notes-conformance: could not delete ${result.cleanup.left.length} resource(s) the probe created: ${result.cleanup.left.join(', ')}`,
    );
    return 1;
  }
  return 0;
}

/** "the 5 note(s) and 4 collection(s)": what the cleanup deleted. */
function deletedWords(cleanup: { deleted: number; deletedCollections: number }): string {
  return `the ${cleanup.deleted} note(s) and ${cleanup.deletedCollections} collection(s)`;
}

/** Which of the observable values were observed, in one line. */
function summary({ findings: f }: Inference): string {
  const statuses = Object.entries(f.statuses)
    .filter(([, s]) => isObserved(s))
    .map(([k, s]) => `${k} ${isObserved(s) ? s.value : ''}`);
  const names = Object.values(f.names).flatMap((slots) => Object.values(slots));
  const endpoints = [f.endpoints.restore_note, f.endpoints.remove_note_from_collection];
  const others: Array<[string, unknown]> = [
    ['error_body', f.errorBody.kindPointer],
    ['unknown_fields', f.unknownFields],
    ['title', f.title],
    ['list_order', f.listOrder],
    ['timestamp_precision_ms', f.timestampPrecisionMs],
    ['rate_limit_headers', f.rateLimit.names],
  ];
  const missing = others.filter(([, v]) => !isObserved(v as never)).map(([k]) => k);
  const observed =
    missing.length === 0
      ? 'error body, unknown_fields, title, list order, precision and headers observed'
      : `not observed: ${missing.join(', ')}`;
  const count = (fs: unknown[]) => `${fs.filter((f) => isObserved(f as never)).length} of ${fs.length}`;
  const found = `names ${count(names)}, endpoints ${count(endpoints)}`;
  return `statuses ${statuses.join(', ') || 'none'}; ${found}; ${observed}; review the commented placeholders`;
}
