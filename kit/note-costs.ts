import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../spec/paths.js';

/**
 * How many notes each check creates, fixture users' included (what the run's cap counts), by check
 * key (kit/core/check-key.ts). Measured, not declared: test/kit/cap-plan.test.ts runs every
 * check against the fake with the remote budgets (the budgets a capped run has) and fails when a
 * check creates more than its entry, or a check creating notes has none; `NOTE_COSTS_UPDATE=1`
 * with that test writes the measured table. A check whose count depends on the seed (a
 * model-based run) keeps the bound of what it may create: `{ "max": n }`.
 *
 * Why a measured table and not declared `needs`: most checks create their notes through shared
 * factories and helpers, so a hand-written number drifts silently; a measurement cannot.
 */
export type NoteCost = number | { max: number };
export type NoteCosts = Readonly<Record<string, NoteCost>>;

export const NOTE_COSTS_FILE = join(packageRoot, 'kit', 'note-costs.json');

export function loadNoteCosts(path = NOTE_COSTS_FILE): NoteCosts {
  return (JSON.parse(readFileSync(path, 'utf8')) as { costs: NoteCosts }).costs;
}

/** A check's notes by the table; a check the table does not name creates none. */
export function noteCostOf(costs: NoteCosts, key: string): number {
  const cost = costs[key];
  if (cost === undefined) return 0;
  return typeof cost === 'number' ? cost : cost.max;
}

export function writeNoteCosts(costs: NoteCosts, path = NOTE_COSTS_FILE): void {
  const sorted = Object.fromEntries(Object.entries(costs).sort(([a], [b]) => a.localeCompare(b)));
  const about = "Notes each check creates, fixture users' included, with the remote budgets; see kit/note-costs.ts.";
  writeFileSync(path, `${JSON.stringify({ about, costs: sorted }, null, 2)}\n`);
}
