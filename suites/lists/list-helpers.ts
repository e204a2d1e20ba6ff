import type { ListNotesQuery } from '../../kit/core/api.js';
import type { TimeWindow } from '../harness/data.js';
import { type Exchange, KitError, show } from '../harness/index.js';

export type Item = Record<string, unknown>;

export const items = (x: Exchange): Item[] => {
  const results = (x.json as { results?: unknown } | undefined)?.results;
  return Array.isArray(results) ? (results as Item[]) : [];
};
export const idsOf = (x: Exchange): string[] => items(x).map((i) => i.id as string);
export const sorted = (values: readonly string[]) => [...values].sort();
export const refused = (x: Exchange) => x.status >= 400 && x.status < 500;
export const ms = (value: unknown) => Date.parse(String(value));

export function nextPage(x: Exchange): string | undefined {
  const value = (x.json as { next_page?: unknown } | undefined)?.next_page;
  return typeof value === 'string' ? value : undefined;
}

/** Bounds that hold every note created in the first 20 s of the window, without depending on inclusiveness. */
export const around = (w: TimeWindow): ListNotesQuery => ({ created_after: w.at(-1), created_before: w.at(20_001) });

/** The same instant written with another offset (the kit compares instants, and so must the target). */
export function withOffset(at: number, minutes: number): string {
  const wall = new Date(at + minutes * 60_000).toISOString().slice(0, 23);
  const abs = Math.abs(minutes);
  const pad = (n: number) => String(Math.floor(n)).padStart(2, '0');
  return `${wall}${minutes < 0 ? '-' : '+'}${pad(abs / 60)}:${pad(abs % 60)}`;
}

/** 'asc' or 'desc' when the values go one way (ties allowed), 'mixed' when both, 'flat' when all are equal. */
export function direction(values: readonly number[]): 'asc' | 'desc' | 'flat' | 'mixed' {
  let up = false;
  let down = false;
  for (let i = 1; i < values.length; i++) {
    if (values[i]! > values[i - 1]!) up = true;
    if (values[i]! < values[i - 1]!) down = true;
  }
  return (up && down) || values.some(Number.isNaN) ? 'mixed' : up ? 'asc' : down ? 'desc' : 'flat';
}

/**
 * A request that carries a name from the profile and is refused says the name is wrong: the
 * profile rule fails, and the documented rule it stood in for cannot be judged (error, not fail).
 */
export const notHonoured = (what: string, x: Exchange) =>
  new KitError(
    `${what} is refused, so the profile's name is not honoured (see notes.list.parameter-names): ${show(x)}`,
  );
