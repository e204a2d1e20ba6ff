import type { Exchange } from '../client.js';
import { kept } from './observation.js';

/** A rule the oracle found broken: the answer that broke it, and the one that established what it contradicts. */
export interface Finding {
  readonly rule: string;
  message: string;
  /** Which failed judgement of the worker it was (Judgements.failures when it was made). */
  readonly seq?: number;
  readonly x: Exchange;
  readonly context?: Exchange;
}

/** Findings kept per rule and source at most: the first tells the story, a few more show it is no accident. */
const KEEP = 3;

/** A finding's message at most, once redacted (values are quoted whole, then the message is cut). */
const MESSAGE_CHARS = 600;

/**
 * Where the answer judged came from: the check that sent it (its test file and vitest name), or
 * none ('') for traffic outside every check (a file's isolation replay, a cleanup). The report
 * shows a judgement under the check that sent the answer when that check names the rule, and
 * under the run-wide oracle otherwise (kit/oracle-verdicts.ts).
 */
export interface Source {
  readonly file: string;
  readonly name: string;
}

/** What was judged of one rule on one source's answers. */
export interface Judged {
  readonly rule: string;
  readonly source?: Source;
  judged: number;
  readonly findings: Finding[];
}

/**
 * The oracle's record: how many times each rule was judged, on whose answers, and the findings. A
 * judgement that holds is evidence the rule was exercised; one that does not is a finding.
 */
export class Judgements {
  /** Per rule, over every source. */
  readonly judged = new Map<string, number>();
  readonly findings = new Map<string, Finding[]>();
  /** Per source (by identity: a worker runs one check at a time), then per rule. */
  private readonly bySource = new Map<Source | undefined, Map<string, Judged>>();
  /** The same entries in the order they were first judged (the report takes a rule's first finding first). */
  private readonly inOrder: Judged[] = [];
  /** The check whose answers are being judged now (a worker runs one check at a time). */
  source: Source | undefined;
  /** Judgements that did not hold, so far: a sequence sees whether its step broke something. */
  failures = 0;
  /** The latest failed judgements, whatever was kept per rule (a sequence's shrinking reads which it was). */
  readonly latest: Finding[] = [];

  /**
   * `redact` removes the run's secrets from a message before it is cut and kept; `keep` makes a
   * finding's exchange evidence when it is found: its repro is what made the state up to then (a
   * later re-create of the same id, as a shrinking model run makes, must not replace it).
   */
  constructor(
    private readonly redact: (text: string) => string = (text) => text,
    private readonly keep: (x: Exchange) => Exchange = kept,
  ) {}

  /** Judges `rule` on the answer `x`: it holds, or the message says how it is broken. */
  that(rule: string, holds: boolean, message: () => string, x: Exchange, context?: Exchange): boolean {
    this.judged.set(rule, (this.judged.get(rule) ?? 0) + 1);
    let rules = this.bySource.get(this.source);
    if (!rules) this.bySource.set(this.source, (rules = new Map()));
    let entry = rules.get(rule);
    if (!entry) {
      entry = { rule, ...(this.source ? { source: this.source } : {}), judged: 0, findings: [] };
      rules.set(rule, entry);
      this.inOrder.push(entry);
    }
    entry.judged++;
    if (holds) return true;
    this.failures++;
    if (this.latest.length >= 20) this.latest.shift();
    this.latest.push({ rule, message: this.redact(message()).slice(0, MESSAGE_CHARS), seq: this.failures, x: kept(x) });
    const all = this.findings.get(rule) ?? [];
    if (entry.findings.length < KEEP || all.length < KEEP) {
      const text = this.redact(message());
      const cut = text.length > MESSAGE_CHARS ? `${text.slice(0, MESSAGE_CHARS - 3)}...` : text;
      const finding = {
        rule,
        message: cut,
        seq: this.failures,
        x: this.keep(x),
        ...(context ? { context: this.keep(context) } : {}),
      };
      if (entry.findings.length < KEEP) entry.findings.push(finding);
      if (all.length < KEEP) all.push(finding);
    }
    this.findings.set(rule, all);
    return false;
  }

  /**
   * Adds how to replay them to the findings made after failed judgement `since` on the current
   * source's answers (a shrunk model-based sequence: its seed, path and steps).
   */
  annotateSince(since: number, text: string): void {
    const note = text.length > 1_000 ? `${text.slice(0, 997)}...` : text;
    for (const entry of this.bySource.get(this.source)?.values() ?? [])
      for (const f of entry.findings) if ((f.seq ?? 0) > since && !f.message.endsWith(note)) f.message += `; ${note}`;
  }

  /** Every rule and source judged, as data to pass from a worker to the run command. */
  entries(): Judged[] {
    return [...this.inOrder];
  }
}
