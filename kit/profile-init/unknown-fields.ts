import { type Finding, notObserved, observed } from './findings.js';
import type { ProbeSession } from './session.js';

/**
 * unknown_fields: a name no API uses, once as a query parameter of GET /v2/notes and once as a
 * body field of POST /v2/collections/search (where every documented field is optional). Both
 * refused: refuse; both answered 200: ignore. The name probes read refusals in this light.
 */
export async function probeUnknownFields(s: ProbeSession): Promise<Finding<'refuse' | 'ignore'>> {
  const name = `zq_unknown_${s.word()}`;
  const query = await s.send('listNotes', { method: 'GET', path: '/v2/notes', query: { limit: 1, [name]: 'true' } });
  const body = await s.send('searchCollections', {
    method: 'POST',
    path: '/v2/collections/search',
    json: { [name]: true },
  });
  const seen =
    `GET /v2/notes with an unknown query parameter answered ${query.status}, ` +
    `POST /v2/collections/search with an unknown body field ${body.status}`;
  const refused = (status: number) => status >= 400 && status < 500;
  const accepted = (status: number) => status >= 200 && status < 300;
  if (refused(query.status) && refused(body.status)) return observed('refuse', seen);
  if (accepted(query.status) && accepted(body.status)) return observed('ignore', seen);
  return notObserved(`${seen}: the two differ`);
}
