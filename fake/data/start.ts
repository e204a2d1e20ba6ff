import { accessSync, constants } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { FakeConfig } from '../config.js';
import type { ServiceContext } from '../service/context.js';
import type { UserRecord } from '../store/records.js';
import { DataFileError } from './errors.js';
import { applySeed, checkSeedData, readSeedFile } from './seed-file.js';
import { loadState } from './state.js';

/** What the instance started with, for the start-up banner. */
export interface DataSummary {
  /** Whether a state file was loaded (then no data file or generated data was applied). */
  restored: boolean;
  collections: number;
  notes: number;
}

/** Loads the state file when there is one; refuses a state path the fake could not save to at exit. */
export function restoreState(ctx: ServiceContext, config: FakeConfig): boolean {
  if (config.stateFile === undefined) return false;
  try {
    accessSync(dirname(resolve(config.stateFile)), constants.W_OK);
  } catch {
    throw new DataFileError(
      `${config.stateFile}: cannot save the state there (the directory is missing or not writable)`,
    );
  }
  return loadState(ctx, config.stateFile);
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
