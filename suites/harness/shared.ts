import type { CheckContext } from './check.js';

/**
 * A resource the checks of one file share: made by the first check that asks for it, reused by
 * the others, and deleted with the rest of the file's data when the file ends. Each shared note or
 * collection saves a create and a delete per check (the cost of a run against a staging account).
 *
 * Only for checks that read it or are refused changing it; each still reads the state it judges
 * against (a broken target may have changed it in an earlier check). Kept per run, since a worker
 * keeps its modules from one run to the next (the fault matrix), and made again after a failure.
 */
export function perFile<T>(make: (t: CheckContext) => Promise<T>): (t: CheckContext) => Promise<T> {
  let made: { runId: string; value: Promise<T> } | undefined;
  return (t) => {
    // The note-cost measurement charges each check what it costs alone (kit/note-costs.ts).
    if (t.ctx.shareResources === false) return make(t);
    if (made?.runId !== t.ctx.runId) {
      const value = make(t);
      const entry = { runId: t.ctx.runId, value };
      made = entry;
      value.catch(() => {
        if (made === entry) made = undefined;
      });
    }
    return made.value;
  };
}
