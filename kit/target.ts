import { randomBytes } from 'node:crypto';
import type { Fake } from '../fake/index.js';
import type { Profile } from '../spec/profile.js';
import { UsageError } from '../spec/verdicts.js';
import { assumedProfile } from './assumed-profile.js';
import { checkWorkers, type KitConfig } from './config.js';
import type { UserPair } from './core/context.js';

/** A target the run can speak to, however it was reached, and how to stop it afterwards. */
export interface StartedTarget {
  url: string;
  label: string;
  embedded: boolean;
  profile: Profile;
  declared: boolean;
  fixtures?: { prefix: string; adminToken: string; offers: string[] };
  tokens: { primary?: string; secondary?: string };
  /** The embedded fake's user pairs, one per check worker (the first is `tokens`). */
  workerTokens?: UserPair[];
  stop(): Promise<void>;
}

/**
 * Target start-up: a URL as given, a container started from an image, or the embedded fake when
 * neither is given (this bootstrap is the one place the kit touches the fake other than over HTTP).
 */
export async function startTarget(config: KitConfig): Promise<StartedTarget> {
  if (config.image) return startContainer(config);
  if (config.target) return remote(config);
  return startEmbeddedFake(config);
}

function remote(config: KitConfig): StartedTarget {
  const profile = config.profile ?? assumedProfile();
  return {
    url: config.target!,
    label: config.target!,
    embedded: false,
    profile,
    declared: config.profile !== undefined,
    ...fixturesOf(profile, config.fixturesToken),
    tokens: givenTokens(config),
    stop: async () => {},
  };
}

async function startEmbeddedFake(config: KitConfig): Promise<StartedTarget> {
  const { createFake } = await import('../fake/index.js');
  const fakeProfile = config.fakeProfile ?? 'fake';
  const token = () => `tok_${randomBytes(12).toString('hex')}`;
  const pairs = Array.from({ length: checkWorkers(config) }, () => ({ primary: token(), secondary: token() }));
  const { primary, secondary } = pairs[0]!;
  const adminToken = `adm_${randomBytes(12).toString('hex')}`;
  let fake: Fake;
  try {
    fake = await createFake({
      profile: fakeProfile,
      faults: config.fakeFaults,
      users: pairs.flatMap((p) => [p.primary, p.secondary]),
      adminToken,
    });
  } catch (error) {
    throw new UsageError(`cannot start the embedded fake: ${(error as Error).message}`);
  }
  // The kit judges the fake by the profile it is given (to prove false positives), else by the fake's own.
  const profile = config.profile ?? fake.config.profile;
  return {
    url: fake.url!,
    label: `embedded fake (${fake.config.profile.name}${config.fakeFaults.length ? `, faults: ${config.fakeFaults.join(', ')}` : ''})`,
    embedded: true,
    profile,
    declared: true,
    ...fixturesOf(profile, adminToken),
    tokens: { primary, secondary },
    workerTokens: pairs,
    stop: () => fake.close(),
  };
}

async function startContainer(config: KitConfig): Promise<StartedTarget> {
  const { startImage } = await import('./container.js');
  const profile = config.profile ?? assumedProfile();
  const container = await startImage(config.image!, config.imagePort);
  return {
    url: container.url,
    label: `image ${config.image}`,
    embedded: false,
    profile,
    declared: config.profile !== undefined,
    ...fixturesOf(profile, config.fixturesToken),
    tokens: givenTokens(config),
    stop: () => container.stop(),
  };
}

function givenTokens(config: KitConfig): StartedTarget['tokens'] {
  return {
    ...(config.token ? { primary: config.token } : {}),
    ...(config.secondaryToken ? { secondary: config.secondaryToken } : {}),
  };
}

function fixturesOf(profile: Profile, adminToken: string | undefined): Pick<StartedTarget, 'fixtures'> {
  const decl = profile.capabilities?.fixtures;
  if (!decl || !adminToken) return {};
  return { fixtures: { prefix: decl.path_prefix, adminToken, offers: [...(decl.offers ?? [])] } };
}
