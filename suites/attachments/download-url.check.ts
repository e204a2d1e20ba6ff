import { expect } from 'vitest';
import { checks, expectRefused, KitError, show } from '../harness/index.js';

const { check } = checks();

check(
  'the attachment download-url endpoint answers the owner of the attachment, and refuses a request without a token',
  {
    rules: ['attachments.download-url.exists', 'auth.bearer.required'],
    needs: ['fixtures:attachments'],
    smoke: true,
  },
  async (t) => {
    const note = await t.data.note();
    const attachment = await t.fixtures().addAttachment(note.id, { attachment_kind: 'pdf', page_count: 1 });
    const id = attachment.attachment_id;
    if (typeof id !== 'string')
      throw new KitError(`the fixture API returned no attachment_id: ${JSON.stringify(attachment)}`);
    const path = `/v2/note-attachments/${id}/download-url`;
    // The response shape is not shown: the endpoint exists when a real attachment's URL is a success.
    const asOwner = await t.api.raw({ method: 'GET', path });
    await t.verify('attachments.download-url.exists', () => {
      expect(
        asOwner.status >= 200 && asOwner.status < 300,
        `GET ${path} for an attachment of the caller's note succeeds: ${show(asOwner)}`,
      ).toBe(true);
    });
    // A real attachment, so a refusal here is the token's doing, not a missing attachment's.
    const anonymous = await t.api.raw({ method: 'GET', path, token: null });
    await t.verify(['attachments.download-url.exists', 'auth.bearer.required'], () => {
      expectRefused(anonymous, `GET ${path} without an Authorization header`);
    });
  },
);
