import type { FakeConfig } from '../config.js';
import type { ServiceContext } from '../service/context.js';
import type { UserRecord } from '../store/records.js';
import { applySeed, checkSeedData, readSeedFile } from './seed-file.js';

/** What the instance started with, for the start-up banner. */
export interface DataSummary {
  /** Whether a state file was loaded (then no data file or generated data was applied). */
  restored: boolean;
  collections: number;
  notes: number;
}

/** Applies `data` and `generate` for `owner` (the first user); nothing when the state was restored. */
export async function seedData(ctx: ServiceContext, config: FakeConfig, owner: UserRecord): Promise<DataSummary> {
  const summary: DataSummary = { restored: false, collections: 0, notes: 0 };
  const add = (counts: { collections: number; notes: number }) => {
    summary.collections += counts.collections;
    summary.notes += counts.notes;
  };
  if (config.data !== undefined) {
    const source = typeof config.data === 'string' ? config.data : 'data';
    add(
      applySeed(
        ctx,
        owner,
        typeof config.data === 'string' ? readSeedFile(config.data) : checkSeedData(config.data, source),
        source,
      ),
    );
  }
  if (config.generate > 0) {
    const { generateSeed } = await import('./generator.js');
    let offset = 0;
    generateSeed(config.generate, config.generateSeed, ctx.clock.now(), (chunk) => {
      const counts = applySeed(
        ctx,
        owner,
        chunk,
        `generated data (seed ${config.generateSeed}, note offset ${offset})`,
      );
      offset += counts.notes;
      add(counts);
    });
  }
  return summary;
}
