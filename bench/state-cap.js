// --state at its cap (a script, not a test: it writes about 256 MiB and takes a minute or two).
//   npm run build && node bench/state-cap.js
// Creates notes of 199,990 characters (the note that once made a 269 MB state the fake could not
// save) until the fake refuses a write with 507, deletes one, stops it (the journal kept beside the
// file), starts a fake on the same file again and checks that every note it acknowledged is there.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFake } from '../dist/fake/index.js';

const dir = mkdtempSync(join(tmpdir(), 'bench-state-cap-'));
const state = join(dir, 'state.json');
const TOKEN = 'cap-bench-token-1';
const call = (fake, method, url, body) =>
  fake.handle({
    method,
    url,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
const words = Array.from({ length: 5_000 }, (_, i) => `w${i.toString(36)}`);
let seed = 1;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const content = (i) => {
  let text = `note ${i}\n`;
  while (text.length < 199_990) text += `${words[Math.floor(rand() * words.length)]} `;
  // Quotes and newlines: JSON escapes them, so the saved file is larger than the characters.
  return text.slice(0, 199_980).replace(/ w1 /g, ' "q"\n');
};

try {
  let t = performance.now();
  const fake = await createFake({ listen: false, users: [TOKEN], state, report: (l) => console.log(`  report: ${l}`) });
  const acknowledged = new Map();
  let refusal;
  for (let i = 0; !refusal; i++) {
    const text = content(i);
    const res = call(fake, 'POST', '/v2/notes', { content: text });
    if (res.status === 200) acknowledged.set(res.json.id, text.length);
    else refusal = res;
  }
  console.log(`created ${acknowledged.size} notes in ${((performance.now() - t) / 1000).toFixed(1)} s; then`);
  console.log(`  ${refusal.status} ${refusal.json.error.message}`);
  // One change after the cap's save, as a session goes on: the stop keeps it in the journal.
  const [gone] = acknowledged.keys();
  if (call(fake, 'DELETE', `/v2/notes/${gone}`).status !== 200) throw new Error('the delete was refused');
  acknowledged.delete(gone);
  t = performance.now();
  await fake.close();
  const bytes = statSync(state).size + statSync(`${state}.journal`, { throwIfNoEntry: false })?.size;
  console.log(`stop: ${(bytes / 2 ** 20).toFixed(1)} MiB on disk in ${((performance.now() - t) / 1000).toFixed(2)} s`);
  t = performance.now();
  const again = await createFake({ listen: false, state, report: (l) => console.log(`  report: ${l}`) });
  const loadS = ((performance.now() - t) / 1000).toFixed(1);
  const missing = [...acknowledged].filter(([id, length]) => again.store.notes.get(id)?.content.length !== length);
  console.log(
    `reload: ${again.store.notes.size} notes in ${loadS} s; acknowledged and missing or changed: ${missing.length}`,
  );
  console.log(`rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB`);
  await again.close();
  if (missing.length > 0 || again.store.notes.size !== acknowledged.size) process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
