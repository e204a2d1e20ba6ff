import type { Fake } from '../../fake/index.js';

/**
 * The flags of a kit run against a fake on a port, as a remote target (remote default budgets,
 * pacing lifted so the test is quick): quiet, the URL and the two users' tokens, then `extra`.
 */
export function targetArgs(fake: Fake, tokens: readonly string[], ...extra: string[]): string[] {
  return [
    '--quiet',
    '--target',
    fake.url!,
    '--token',
    tokens[0]!,
    '--secondary-token',
    tokens[1]!,
    '--requests-per-second',
    '1000',
    ...extra,
  ];
}
