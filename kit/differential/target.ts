import { randomBytes } from 'node:crypto';
import { createFake, type Fake } from '../../fake/index.js';
import type { Profile } from '../../spec/profile.js';
import type { DiffTarget } from './run.js';

export interface EmbeddedTarget extends DiffTarget {
  readonly fake: Fake;
  close(): Promise<void>;
}

/**
 * An embedded fake as the target (with a fault, or another profile): how the differential
 * check proves itself. Its data persists across sequences, like a shared remote account.
 */
export async function embeddedTarget(
  options: { profile?: string | Profile; faults?: readonly string[] } = {},
): Promise<EmbeddedTarget> {
  const token = `tok_${randomBytes(12).toString('hex')}`;
  const fake = await createFake({
    ...(options.profile ? { profile: options.profile } : {}),
    faults: options.faults ?? [],
    users: [token],
  });
  const faults = [...fake.config.faults];
  return {
    url: fake.url!,
    token,
    profile: fake.config.profile,
    declared: true,
    label: `embedded fake (${fake.config.profile.name}${faults.length ? `, faults: ${faults.join(', ')}` : ''})`,
    embedded: true,
    fake,
    close: () => fake.close(),
  };
}
