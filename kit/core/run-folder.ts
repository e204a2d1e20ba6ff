import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import type { QuotaInfo } from '../../spec/verdicts.js';

/**
 * The run folder: a private temporary directory (mkdtemp, removed when the run ends) through which
 * the run command and its vitest workers, separate processes, tell each other what a run did.
 * This module is the one owner of its file names and formats; every reader and writer goes
 * through it. The files that hold tokens or bodies (secrets, requests, quota, HAR) are written 0600.
 *  - ledger.jsonl: the cleanup journal, one JSON entry a line, appended by every process (ledger.ts);
 *  - worker-PID: a worker's pid, so that a signal reaching only the run command is passed on (signals.ts);
 *  - secrets-PID-THREAD: tokens a worker learned (fixture users'), one JSON string a line, for the final redaction;
 *  - requests-PID-THREAD-FILE-TIME.json: `{"requests": N}` a check file sent, for the report's count;
 *  - quota.json: the first spent quota a create met (quota.ts), for the report's exit 3;
 *  - har-NAME.jsonl: one process's recorded exchanges for --har, one HAR entry a line (har.ts);
 *  - oracle-PID-THREAD.json: what one worker's oracle judged so far (kit/core/oracle/oracle.ts
 *    record()), rewritten as each of its files ends, for the report (kit/oracle-verdicts.ts).
 *  - rate-limited-since: when the target's current stretch of 429s began (epoch ms), for every
 *    client of the run (the kit waits for one stretch at most, whichever process met it).
 *  - explorer-PID-THREAD-NAME.json: what one explorer check sent and visited so far, and
 *    claim-UNIT/: a unit of exploration an explorer took (mkdir: one taker), so that the
 *    explorers of two workers share the budget and the work (kit/core/explore/explorer.ts).
 */
const JOURNAL = 'ledger.jsonl';
const WORKER = 'worker-';
const SECRETS = 'secrets-';
const REQUESTS = 'requests-';
const QUOTA = 'quota.json';
const HAR = 'har-';
const ORACLE = 'oracle-';
const RATE_LIMITED = 'rate-limited-since';
const EXPLORER = 'explorer-';
const CLAIM = 'claim-';
const PRIVATE = { mode: 0o600 } as const;

export function journalPath(runDir: string): string {
  return join(runDir, JOURNAL);
}

/** Names this worker process in the run folder; returns the file (removed when the worker exits). */
export function writeWorkerFile(runDir: string): string {
  const file = join(runDir, `${WORKER}${process.pid}`);
  writeFileSync(file, String(process.pid), PRIVATE);
  return file;
}

/** The pids of the workers named in the run folder (none if the folder is gone: the run is over). */
export function workerPids(runDir: string): number[] {
  return namesIn(runDir, WORKER)
    .map((name) => Number(name.slice(WORKER.length)))
    .filter((pid) => Number.isInteger(pid) && pid > 0);
}

/** Where one worker thread appends the tokens it learns. */
export function secretsWriter(runDir: string, threadId: number): (secret: string) => void {
  const file = join(runDir, `${SECRETS}${process.pid}-${threadId}`);
  return (secret) => appendFileSync(file, `${JSON.stringify(secret)}\n`, PRIVATE);
}

/** Every token the workers learned during the run. */
export function learnedSecrets(runDir: string): string[] {
  return linesOf(runDir, SECRETS).map((line) => JSON.parse(line) as string);
}

/**
 * The run's one stretch of rate-limit refusals, shared by the run command's client and every
 * worker's: a stretch one process began goes on in another (a worker's first 429 after another's
 * last is the same stretch), so the kit waits the per-wait cap once a run, not once a process.
 */
export function rateLimitStretch(runDir: string): {
  read(): number | undefined;
  write(since: number | undefined): void;
} {
  const file = join(runDir, RATE_LIMITED);
  return {
    read() {
      try {
        const since = Number(readFileSync(file, 'utf8'));
        return Number.isFinite(since) && since > 0 ? since : undefined;
      } catch {
        return undefined;
      }
    },
    write(since) {
      try {
        writeFileSync(file, since === undefined ? '' : String(since));
      } catch {
        // the run folder is gone: the run is over
      }
    },
  };
}

/** The requests one check file sent (written when the file ends). */
export function writeRequestCount(runDir: string, threadId: number, file: number, requests: number, cleanup = 0): void {
  const name = `${REQUESTS}${process.pid}-${threadId}-${file}-${Date.now()}.json`;
  writeFileSync(join(runDir, name), JSON.stringify({ requests, cleanup }), PRIVATE);
}

/** The requests every check file of the run sent, and those it sent to clean up (counted apart). */
export function countRequests(runDir: string): { requests: number; cleanup: number } {
  const total = { requests: 0, cleanup: 0 };
  for (const name of namesIn(runDir, REQUESTS)) {
    const counted = JSON.parse(readFileSync(join(runDir, name), 'utf8')) as { requests: number; cleanup?: number };
    total.requests += counted.requests;
    total.cleanup += counted.cleanup ?? 0;
  }
  return total;
}

export function writeSpentQuota(runDir: string, quota: QuotaInfo): void {
  writeFileSync(join(runDir, QUOTA), JSON.stringify(quota), PRIVATE);
}

/** The quota a create found spent, if any. */
export function spentQuota(runDir: string): QuotaInfo | undefined {
  const path = join(runDir, QUOTA);
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as QuotaInfo) : undefined;
}

/** Where one process appends its recorded exchanges for --har. */
export function harPath(runDir: string, name: string): string {
  return join(runDir, `${HAR}${name}.jsonl`);
}

/** The lines of every process's --har file (a line may be cut short by a worker stopped mid-write). */
export function harLines(runDir: string): string[] {
  return linesOf(runDir, HAR);
}

/** Replaces this worker's oracle record (written whole, then renamed: a reader never sees half of it). */
export function writeOracleRecord(runDir: string, threadId: number, record: unknown): void {
  const file = join(runDir, `${ORACLE}${process.pid}-${threadId}.json`);
  writeFileSync(`${file}.tmp`, JSON.stringify(record), PRIVATE);
  renameSync(`${file}.tmp`, file);
}

/** The oracle records of every worker of the run. */
export function oracleRecords(runDir: string): unknown[] {
  return namesIn(runDir, ORACLE)
    .filter((name) => name.endsWith('.json'))
    .map((name) => JSON.parse(readFileSync(join(runDir, name), 'utf8')) as unknown);
}

const coverageRead = new Map<string, { readonly at: string; readonly coverage: readonly string[] }>();

/** The behaviour targets each worker's oracle record names (a record is read again only once rewritten). */
export function recordedCoverage(runDir: string): string[] {
  return namesIn(runDir, ORACLE)
    .filter((name) => name.endsWith('.json'))
    .flatMap((name) => {
      const file = join(runDir, name);
      const stat = statSync(file, { throwIfNoEntry: false });
      if (!stat) return [];
      const at = `${stat.mtimeMs}:${stat.size}`;
      const known = coverageRead.get(file);
      if (known?.at === at) return known.coverage;
      const coverage = (JSON.parse(readFileSync(file, 'utf8')) as { coverage?: string[] }).coverage ?? [];
      coverageRead.set(file, { at, coverage });
      return coverage;
    });
}

/** What one explorer has sent so far and the targets its worker visited (written whole, then renamed). */
export interface ExplorerProgress {
  readonly requests: number;
  readonly covered: readonly string[];
}

export function writeExplorerProgress(
  runDir: string,
  name: string,
  threadId: number,
  progress: ExplorerProgress,
): void {
  const file = join(runDir, `${EXPLORER}${process.pid}-${threadId}-${name}.json`);
  writeFileSync(`${file}.tmp`, JSON.stringify(progress), PRIVATE);
  renameSync(`${file}.tmp`, file);
}

/** Every other explorer's progress (this one's, named by name and thread, left out). */
export function otherExplorers(runDir: string, name: string, threadId: number): ExplorerProgress[] {
  const own = `${EXPLORER}${process.pid}-${threadId}-${name}.json`;
  return namesIn(runDir, EXPLORER)
    .filter((file) => file.endsWith('.json') && file !== own)
    .map((file) => JSON.parse(readFileSync(join(runDir, file), 'utf8')) as ExplorerProgress);
}

/** Takes a unit of exploration for this process: false when another explorer of the run took it. */
export function claimUnit(runDir: string, unit: string): boolean {
  try {
    mkdirSync(join(runDir, `${CLAIM}${unit.replace(/[^A-Za-z0-9-]/g, '_')}`));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

function namesIn(runDir: string, prefix: string): string[] {
  try {
    return readdirSync(runDir).filter((name) => name.startsWith(prefix));
  } catch {
    return [];
  }
}

function linesOf(runDir: string, prefix: string): string[] {
  return namesIn(runDir, prefix).flatMap((name) =>
    readFileSync(join(runDir, name), 'utf8')
      .split('\n')
      .filter((line) => line !== ''),
  );
}
