import { expect } from 'vitest';
import type { Exchange } from '../../kit/core/client.js';
import { type Name, primaryName } from '../../spec/profile.js';
import type { RuleId } from '../../spec/rule-ids.js';
import type { CheckContext } from './check.js';
import { show } from './expect.js';

/** One note of each contains kind (markdown tasks open and done, an image, a file link, none). */
export interface ContainsKinds {
  readonly open: string;
  readonly done: string;
  readonly image: string;
  readonly file: string;
  readonly plain: string;
}

export type ContainsFilter = { open_tasks?: true; tasks?: true; images?: true; files?: true };

export interface ContainsCase {
  readonly rule: RuleId;
  readonly what: string;
  readonly filter: ContainsFilter;
  readonly keep: string[];
  readonly drop: string[];
}

/**
 * The contains filters of the note list and of search, case by case: each alone, then two
 * together (combined with OR). Whether an image also counts as file-like (or the reverse) is not
 * shown, so neither is asserted: image and file notes are never in each other's `drop`.
 */
export function containsCases(
  area: 'notes.list' | 'notes.search',
  declared: { contains_open_tasks?: Name; contains_tasks?: Name; contains_images?: Name; contains_files?: Name },
  k: ContainsKinds,
  together: 'images-and-files' | 'open-tasks-and-images',
): ContainsCase[] {
  // Messages name what the kit sends: the first of a name's aliases.
  const names = {
    contains_open_tasks: primaryName(declared.contains_open_tasks),
    contains_tasks: primaryName(declared.contains_tasks),
    contains_images: primaryName(declared.contains_images),
    contains_files: primaryName(declared.contains_files),
  };
  const one = (what: string, filter: ContainsFilter, keep: string[], drop: string[]): ContainsCase => ({
    rule: `${area}.contains-filters`,
    what,
    filter,
    keep,
    drop,
  });
  const both: ContainsCase =
    together === 'images-and-files'
      ? {
          rule: `${area}.contains-or`,
          what: 'the image and file filters together',
          filter: { images: true, files: true },
          keep: [k.image, k.file],
          drop: [k.open, k.done, k.plain],
        }
      : {
          rule: `${area}.contains-or`,
          what: 'the open-task and image filters together',
          filter: { open_tasks: true, images: true },
          keep: [k.open, k.image],
          drop: [k.done, k.file, k.plain],
        };
  return [
    one(
      `the open-task filter ${names.contains_open_tasks}`,
      { open_tasks: true },
      [k.open],
      [k.done, k.image, k.file, k.plain],
    ),
    one(`the any-task filter ${names.contains_tasks}`, { tasks: true }, [k.open, k.done], [k.image, k.file, k.plain]),
    one(`the image filter ${names.contains_images}`, { images: true }, [k.image], [k.open, k.done, k.plain]),
    one(`the file filter ${names.contains_files}`, { files: true }, [k.file], [k.open, k.done, k.plain]),
    both,
  ];
}

/**
 * Judges one contains-filter answer (list or search, the same rule): accepted, the matching notes
 * kept, the others of the five dropped. `idsOf` reads the answer's result ids; `ids` names the five.
 */
export async function judgeContainsCase(
  t: CheckContext,
  c: ContainsCase,
  x: Exchange,
  idsOf: (x: Exchange) => string[],
  ids: readonly string[],
): Promise<void> {
  await t.verify(c.rule, () => {
    expect(x.status, `${c.what}: ${show(x)}`).toBe(200);
    expect(idsOf(x), `${c.what} keeps the matching notes`).toEqual(expect.arrayContaining(c.keep));
    expect(
      idsOf(x).filter((id) => c.drop.includes(id)),
      `${c.what} drops the others (open, done, image, file, plain: ${ids.join(', ')})`,
    ).toEqual([]);
  });
}
