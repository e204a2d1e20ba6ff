import { charCount, LIMITS } from '../../../spec/limits.js';
import type { Ask, Part } from './prediction.js';
import { liveNote } from './request.js';

/**
 * An attachment the fixture API added to a note of the caller's, while the note is active
 * (section 4's referenced endpoints): its download URL is answered, and a question about it takes
 * "1..10,000 characters" (an empty one or a longer one refused, one at either end accepted).
 * Whether a trashed note's attachments still answer is not shown.
 */
export function attachmentPart({ world, r }: Ask): Part {
  if (r.op !== 'getAttachmentDownloadUrl' && r.op !== 'askAttachmentQuestion') return {};
  const noteId = world.attachments.get(r.params.attachment_id ?? '');
  const n = noteId === undefined ? undefined : liveNote(world, noteId, r);
  if (!n || n.owner !== r.actor || !r.ownToken || n.trashed?.value !== false) return {};
  if (r.op === 'getAttachmentDownloadUrl')
    return {
      accept: [
        { rule: 'attachments.download-url.exists', what: "the download URL of an attachment of the caller's note" },
      ],
    };
  // The other fields as the kit sends them (the attachment's own id and a kind): the length alone decides.
  const { question, attachment_id, attachment_kind } = (r.body ?? {}) as Record<string, unknown>;
  if (typeof question !== 'string' || attachment_id !== r.params.attachment_id || typeof attachment_kind !== 'string')
    return {};
  const chars = charCount(question);
  const max = LIMITS.attachmentQuestion.chars;
  if (chars === 0 || chars > max)
    return {
      refuse: [{ rule: 'attachments.question.length', what: `a question of ${chars} characters`, input: true }],
    };
  return chars === 1 || chars === max
    ? {
        accept: [
          { rule: 'attachments.question.length', what: `a question of ${chars} characters`, serverErrorFails: true },
        ],
      }
    : {};
}
