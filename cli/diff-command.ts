import { assumedProfile } from '../kit/assumed-profile.js';
import { profileProblem } from '../kit/config.js';
import { diffBudgets } from '../kit/differential/budgets.js';
import { formatResult } from '../kit/differential/format.js';
import { type DiffTarget, runDifferential } from '../kit/differential/run.js';
import { embeddedTarget } from '../kit/differential/target.js';
import {
  type BuiltinProfileName,
  loadBuiltinProfile,
  loadProfile,
  type Profile,
  ProfileError,
} from '../spec/profile.js';
import { KitError, UsageError } from '../spec/verdicts.js';
import { parseFlags } from './flags.js';

export const DIFF_USAGE = `Usage: notes-conformance diff [options]

Replays random sequences of operations on the target and on a fresh reference fake started
with the target's profile, and prints the first difference in documented behaviour.

  --target URL        the server under test (env NOTES_TARGET_URL); default: an embedded fake
  --token T           its bearer token (env NOTES_TOKEN)
  --profile P         the target's profile: a YAML file, fake or fake-divergent (env NOTES_PROFILE)
  --fake-fault NAME   start the embedded target with a fault (repeatable; no --target)
  --runs N            sequences to run (default: the profile's model_runs; 30 embedded, 2 remote)
  --max-ops N         operations per sequence at most (default 25 embedded, 12 remote)
  --seed N            fast-check seed;  --path P  with it, replays one reported sequence
  -h, --help

Against a target the run is paced and stays within the profile's request budget (default 1500):
it starts no sequence it could not finish and clean up after.

Exit status: 0 no difference, 1 a difference (printed), 2 usage error, or the kit could not
judge (unreachable, token refused, stopped early).`;

type Env = Readonly<Record<string, string | undefined>>;

/** notes-conformance diff: the differential check against a URL, or an embedded fake against a clean one. */
export async function diffCommand(
  argv: string[],
  env: Env,
  out: (line: string) => void,
  err: (line: string) => void = out,
): Promise<number> {
  const values = parseFlags(
    argv,
    {
      target: { type: 'string' },
      token: { type: 'string' },
      profile: { type: 'string' },
      'fake-fault': { type: 'string', multiple: true },
      runs: { type: 'string' },
      'max-ops': { type: 'string' },
      seed: { type: 'string' },
      path: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    'diff',
  );
  if (values.help) {
    out(DIFF_USAGE);
    return 0;
  }
  const url = values.target ?? env.NOTES_TARGET_URL;
  const profileArg = values.profile ?? env.NOTES_PROFILE;
  const faults = values['fake-fault'] ?? [];
  if (url && faults.length > 0) throw new UsageError('--fake-fault applies to the embedded target only; drop --target');
  if (values.path !== undefined && values.seed === undefined)
    throw new UsageError('--path replays a sequence of a given --seed');
  // fast-check's replay path: step numbers separated by colons, as the report of a difference prints it.
  if (values.path !== undefined && !/^\d{1,9}(:\d{1,9}){0,999}$/.test(values.path)) {
    throw new UsageError(
      `--path takes the path a reported difference prints, numbers separated by colons such as 3:0:1 (got ${values.path})`,
    );
  }
  const seed = values.seed === undefined ? undefined : count(values.seed, '--seed', 0);
  let target: DiffTarget;
  let close = async () => {};
  if (url) {
    const token = values.token ?? env.NOTES_TOKEN;
    if (!token) throw new UsageError('a target needs a token: --token or NOTES_TOKEN');
    if (!/^https?:\/\/[^@/]+/.test(url))
      throw new UsageError(`--target must be an http(s) URL without credentials (got ${url})`);
    const profile = profileArg ? profileOf(profileArg) : assumedProfile();
    target = {
      url: url.replace(/\/+$/, ''),
      token,
      profile,
      declared: profileArg !== undefined,
      label: url,
      embedded: false,
    };
  } else {
    try {
      const embedded = await embeddedTarget({ ...(profileArg ? { profile: profileOf(profileArg) } : {}), faults });
      target = embedded;
      close = embedded.close;
    } catch (error) {
      if (error instanceof UsageError) throw error;
      throw new UsageError(`cannot start the embedded target: ${(error as Error).message}`);
    }
  }
  // Ctrl-C stops after the current sequence, which still deletes what it created on the target.
  // Handlers stay until the cleanup is done: a second Ctrl-C must not end the process mid-sweep.
  const stop = new AbortController();
  const interrupt = () => {
    if (stop.signal.aborted)
      process.stderr.write('notes-conformance diff: still cleaning up what the sequence created...\n');
    stop.abort();
  };
  process.on('SIGINT', interrupt);
  process.on('SIGTERM', interrupt);
  try {
    const result = await runDifferential({
      target,
      ...diffBudgets(target, {
        ...(values.runs ? { runs: count(values.runs, '--runs', 1) } : {}),
        ...(values['max-ops'] ? { maxOps: count(values['max-ops'], '--max-ops', 1) } : {}),
      }),
      ...(seed === undefined ? {} : { seed }),
      ...(values.path ? { path: values.path } : {}),
      signal: stop.signal,
    });
    for (const line of formatResult(result, target)) out(line);
    return result.difference ? 1 : result.stopped ? 2 : 0;
  } catch (error) {
    if (!(error instanceof KitError)) throw error;
    err(`notes-conformance diff: the kit could not judge: ${error.message}`);
    return 2;
  } finally {
    process.off('SIGINT', interrupt);
    process.off('SIGTERM', interrupt);
    await close();
  }
}

function profileOf(arg: string): Profile {
  try {
    return arg === 'fake' || arg === 'fake-divergent'
      ? loadBuiltinProfile(arg as BuiltinProfileName)
      : loadProfile(arg);
  } catch (error) {
    if (error instanceof ProfileError) throw new UsageError(profileProblem('--profile', error));
    throw error;
  }
}

function count(raw: string, flag: string, min: number): number {
  if (!/^\d{1,10}$/.test(raw) || Number(raw) < min)
    throw new UsageError(`${flag} must be an integer >= ${min} (got ${raw})`);
  return Number(raw);
}
