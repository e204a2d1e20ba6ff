import type { AttachmentRecord, NoteRecord, UserRecord } from '../store/records.js';
import type { ServiceContext } from './context.js';
import { invalid, notFound } from './errors.js';
import { canSeeNote } from './permissions.js';
import { checkString, checkUuid, requireObject } from './validate.js';
import type { View } from './views.js';

/** The attachment and the note holding it, if the user can see that note. */
function findAttachment(
  ctx: ServiceContext,
  user: UserRecord,
  attachmentId: string,
): { note: NoteRecord; attachment: AttachmentRecord } {
  for (const note of ctx.store.notes.values()) {
    const attachment = note.attachments.find((a) => a.attachment_id === attachmentId);
    if (attachment && canSeeNote(ctx, user, note)) return { note, attachment };
  }
  throw notFound('attachment');
}

/** The question-about-an-attachment operation (path not shown; request and response fields are). */
export function askAttachmentQuestion(
  ctx: ServiceContext,
  user: UserRecord,
  attachmentId: string,
  body: unknown,
): View {
  const input = requireObject(body);
  const idInBody = checkUuid(input.attachment_id, 'attachment_id');
  if (idInBody !== attachmentId) throw invalid('attachment_id in the body must match the path');
  const kind = checkString(input.attachment_kind, 'attachment_kind', { minChars: 1 });
  const question = checkString(input.question, 'question', { minChars: 1, ...ctx.policy.question });
  const { attachment } = findAttachment(ctx, user, attachmentId);
  if (kind !== attachment.attachment_kind) throw invalid(`attachment_kind must be ${attachment.attachment_kind}`);
  // A canned, deterministic answer: the fake has no model behind it.
  const source = attachment.ocr_text ?? attachment.summary ?? attachment.visual_description ?? '';
  const words = new Set(question.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
  const hit = source
    .split(/(?<=[.!?])\s+/)
    .find((sentence) => [...words].some((w) => sentence.toLowerCase().includes(w)));
  const pages = attachment.page_count ?? 0;
  return {
    answer: hit ?? 'The attachment does not say.',
    attachment_id: attachment.attachment_id,
    attachment_kind: attachment.attachment_kind,
    page_references: pages > 0 ? [1] : [],
  };
}

/** GET /v2/note-attachments/{attachment_id}/download-url (shapes not shown): a fake, expiring URL. */
export function attachmentDownloadUrl(ctx: ServiceContext, user: UserRecord, attachmentId: string): View {
  const { attachment } = findAttachment(ctx, user, attachmentId);
  const expires = ctx.settings.formatTime(ctx.clock.now() + 15 * 60_000);
  return {
    url: `https://files.notes.example/${attachment.attachment_id}?expires=${encodeURIComponent(expires)}`,
    expires_at: expires,
  };
}
