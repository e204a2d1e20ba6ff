import { freshId } from './inputs.js';
import type { Ask, Part } from './prediction.js';

/**
 * A fixture user's note quota (the fixture API's limit; section 8: "Setting a note's creation time
 * does not affect quota accounting", and the quota_exceeded body of section 7): with creates left
 * after set-created-at calls, a create must be accepted; with none left, it is refused as
 * quota_exceeded (the declared status) and makes nothing under its id. Only while the count is
 * known: a delete ends it, since whether a delete gives a create back is not shown.
 */
export function quotaPart({ world, r, problems, body }: Ask): Part {
  const q = world.quotas.get(r.actor);
  if (!q || !r.ownToken || q.unknown) return {};
  switch (r.op) {
    case 'deleteNote':
      return { accepted: () => void (q.unknown = true) };
    case 'setNoteCreatedAt':
      return { accepted: (_a, { ev }) => void (q.setCreatedAt = ev) };
    case 'createNote': {
      const part: Part = { quotaAnswers: true, accepted: () => void q.created++ };
      // A supplied id that exists may be refused as a conflict first; a bad input as invalid.
      if (problems.length > 0 || (body.id !== undefined && !freshId(world, body.id))) return part;
      if (q.created < q.limit)
        return q.setCreatedAt
          ? {
              ...part,
              accept: [
                {
                  rule: 'quota.set-created-at.neutral',
                  what: `a create with ${q.limit - q.created} of a quota of ${q.limit} notes left, after set-created-at`,
                  context: q.setCreatedAt,
                },
              ],
            }
          : part;
      const what = `a create past a quota of ${q.limit} notes, all of them created`;
      return {
        ...part,
        refuse: [{ rule: 'quota.create.exceeded-body', what }],
        kind: { kind: 'quota_exceeded', rule: 'quota.create.exceeded-status', why: what },
        refused: ({ ev }) => {
          if (typeof body.id === 'string')
            world.refusedCreates.set(`note ${body.id}`, {
              rule: 'quota.create.exceeded-body',
              by: ev,
              asked: { id: body.id },
            });
        },
      };
    }
    default:
      return {};
  }
}
