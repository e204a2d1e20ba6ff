import { expect } from 'vitest';
import type { Exchange } from '../../kit/core/client.js';
import type { RuleId } from '../../spec/rule-ids.js';
import type { CheckContext } from './check.js';
import { expectRefused } from './expect.js';

/** One request that must be refused and change nothing; `what` names it in the verdict. */
export interface RefusedAttempt {
  rules: RuleId | readonly RuleId[];
  what: string;
  send(): Promise<Exchange>;
}

/**
 * Several refusals of one resource that must each change nothing, judged with one read at the
 * end instead of one after each (the cost of a run). Each refusal is judged at once; then one
 * read compares the resource with `before`. The attempts write values other than the state
 * before (the caller makes sure), and what a write changes only moves away from it (versions
 * and updated_at grow), so an unchanged end state means no attempt changed anything. Only when
 * it changed are the attempts sent again with a read after each, so the change is charged to
 * the attempts that make it (and to all of them if it does not show again).
 */
export async function expectRefusalsChangeNothing<S>(
  t: CheckContext,
  attempts: readonly RefusedAttempt[],
  read: () => Promise<S>,
  before: S,
): Promise<void> {
  for (const attempt of attempts) {
    const x = await attempt.send();
    await t.verify(attempt.rules, () => expectRefused(x, attempt.what));
  }
  const after = await read();
  if (isEqual(after, before)) return;
  let previous = after;
  let charged = false;
  for (const attempt of attempts) {
    await attempt.send();
    const now = await read();
    if (!isEqual(now, previous)) {
      charged = true;
      await t.verify(attempt.rules, () => expect(now, `${attempt.what} must change nothing`).toEqual(previous));
    }
    previous = now;
  }
  if (charged) return;
  for (const attempt of attempts) {
    await t.verify(attempt.rules, () =>
      expect(
        after,
        `one of the refused requests (${attempts.map((a) => a.what).join('; ')}) changed the resource`,
      ).toEqual(before),
    );
  }
}

function isEqual(a: unknown, b: unknown): boolean {
  try {
    expect(a).toEqual(b);
    return true;
  } catch {
    return false;
  }
}
