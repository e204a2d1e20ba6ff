import { assumedProfile } from '../kit/assumed-profile.js';
import { profileProblem } from '../kit/config.js';
import { diffBudgets } from '../kit/differential/budgets.js';
import { formatResult } from '../kit/differential/format.js';
import type { DiffTarget } from '../kit/differential/run.js';
import { environmentHelp, flagOrEnv, flagsHelp, parseOptions } from '../kit/flags.js';
import {
  type BuiltinProfileName,
  loadBuiltinProfile,
  loadProfile,
  type Profile,
  ProfileError,
} from '../spec/profile.js';
import { KitError, UsageError } from '../spec/verdicts.js';
import { DIFF_FLAGS } from './diff-flags.js';
import { parseFlags } from './flags.js';

export const DIFF_USAGE = `Usage: notes-conformance diff [options]

Replays random sequences of operations on the target and on a fresh reference fake started
with the target's profile, and prints the first difference in documented behaviour.

${flagsHelp(DIFF_FLAGS)}

Environment (a flag wins over its variable):
${environmentHelp(DIFF_FLAGS)}

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
  const values = parseFlags(argv, parseOptions(DIFF_FLAGS), 'diff');
  if (values.help) {
    out(DIFF_USAGE);
    return 0;
  }
  const url = flagOrEnv(DIFF_FLAGS, 'target', values.target, env);
  const profileArg = flagOrEnv(DIFF_FLAGS, 'profile', values.profile, env);
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
    const token = flagOrEnv(DIFF_FLAGS, 'token', values.token, env);
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
      const { embeddedTarget } = await import('../kit/differential/target.js');
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
    const { runDifferential } = await import('../kit/differential/run.js');
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
