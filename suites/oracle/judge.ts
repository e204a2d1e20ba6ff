import type { Exchange } from '../../kit/core/client.js';
import { kept } from './observation.js';

/** A rule the oracle found broken: the answer that broke it, and the one that established what it contradicts. */
export interface Finding {
  readonly rule: string;
  readonly message: string;
  readonly x: Exchange;
  readonly context?: Exchange;
}

/** Findings kept per rule at most: the first tells the story, a few more show it is no accident. */
const KEEP_PER_RULE = 3;

/**
 * The oracle's record: how many times each rule was judged, and the findings. A judgement that
 * holds counts as evidence the rule was exercised; one that does not is a finding.
 */
/** A finding's message at most, once redacted (values are quoted whole, then the message is cut). */
const MESSAGE_CHARS = 600;

export class Judgements {
  readonly judged = new Map<string, number>();
  readonly findings = new Map<string, Finding[]>();

  /** `redact` removes the run's secrets from a message before it is cut and kept. */
  constructor(private readonly redact: (text: string) => string = (text) => text) {}

  /** Judges `rule` on the answer `x`: it holds, or the message says how it is broken. */
  that(rule: string, holds: boolean, message: () => string, x: Exchange, context?: Exchange): boolean {
    this.judged.set(rule, (this.judged.get(rule) ?? 0) + 1);
    if (holds) return true;
    const list = this.findings.get(rule) ?? [];
    if (list.length < KEEP_PER_RULE) {
      const text = this.redact(message());
      const cut = text.length > MESSAGE_CHARS ? `${text.slice(0, MESSAGE_CHARS - 3)}...` : text;
      list.push({ rule, message: cut, x: kept(x), ...(context ? { context: kept(context) } : {}) });
    }
    this.findings.set(rule, list);
    return false;
  }

  /** A judgement of `rule` that held, where no answer is at hand (a comparison with another worker's record). */
  held(rule: string): void {
    this.judged.set(rule, (this.judged.get(rule) ?? 0) + 1);
  }

  /** What another worker's oracle judged (its record()), counted as if judged here. */
  absorb(other: JudgementsRecord): void {
    for (const [rule, n] of other.judged) this.judged.set(rule, (this.judged.get(rule) ?? 0) + n);
    for (const [rule, found] of other.findings) {
      const list = this.findings.get(rule) ?? [];
      list.push(...found.slice(0, Math.max(0, KEEP_PER_RULE - list.length)));
      this.findings.set(rule, list);
    }
  }

  record(): JudgementsRecord {
    return { judged: [...this.judged], findings: [...this.findings] };
  }
}

/** Judgements as data, to pass between worker processes (the run folder's oracle records). */
export interface JudgementsRecord {
  readonly judged: ReadonlyArray<readonly [string, number]>;
  readonly findings: ReadonlyArray<readonly [string, Finding[]]>;
}
