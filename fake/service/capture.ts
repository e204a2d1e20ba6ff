import type { UserRecord } from '../store/records.js';
import type { ServiceContext } from './context.js';
import { DomainError, invalid } from './errors.js';
import { createNote } from './notes-write.js';
import { checkNotFuture, checkString, type Input, parseTimestamp, requireObject } from './validate.js';
import type { View } from './views.js';

/**
 * The capture operation of the document's history: "/v1 released: capture operation", "/v2 series
 * released: asynchronous capture operation", request status tracking only planned. Its endpoint and
 * fields are not shown (profile: endpoints.capture, names.capture). The fake checks the request at
 * once, answers only that it was accepted (the http layer adds request_id), and files the input as
 * a note before it serves the next request: a client must not expect the note in the answer.
 */

/** Optional fields the document gives no null; with null_fields: absent a null reads as not sent. */
export const CAPTURE_OPTIONAL = ['instructions', 'context', 'timestamp'];

/** The fake's own bound on the optional prose fields (the document shows none). */
const PROSE_MAX_CHARS = 10_000;

export function acceptCapture(ctx: ServiceContext, user: UserRecord, body: unknown): View {
  const input = requireObject(body);
  if (input.input === undefined) throw invalid('input is required', 'input');
  // The input becomes a note's content: the note create limits hold.
  const content = checkString(input.input, 'input', ctx.policy.note.createContent);
  if (!/\S/.test(content)) throw invalid('input must contain at least one non-whitespace character', 'input');
  optionalProse(input, 'instructions');
  optionalProse(input, 'context');
  const at =
    input.timestamp === undefined
      ? undefined
      : checkNotFuture(parseTimestamp(input.timestamp, 'timestamp'), ctx.clock.now(), 'timestamp');
  ctx.store.captures.push({ userId: user.id, content, at });
  return {};
}

/** Instructions and context: text for a filing assistant; the fake has none, so it only checks them. */
function optionalProse(input: Input, field: string): void {
  if (input[field] !== undefined) checkString(input[field], field, { maxChars: PROSE_MAX_CHARS });
}

/**
 * Files every accepted capture as a note of its user (created at its timestamp, if given). A capture
 * that can no longer be filed (the user's quota ran out, the user is gone) is dropped: the document
 * offers no way to ask what became of a capture.
 */
export function settleCaptures(ctx: ServiceContext): void {
  const pending = ctx.store.captures.splice(0);
  for (const capture of pending) {
    const user = ctx.store.users.get(capture.userId);
    if (!user) continue;
    const body = {
      content: capture.content,
      ...(capture.at === undefined ? {} : { created_at: new Date(capture.at).toISOString() }),
    };
    try {
      createNote(ctx, user, body);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
    }
  }
}
