// Same answers from two builds of the fake (a script, not a test: a tool for changes that must not
// change results, such as the search index's speed-ups).
//   npm run build && OTHER=../other-checkout node bench/same-answers.js     (SEED=1 N=3000 by default)
// OTHER is a checkout with its own `npm run build` (dist/ and node_modules/). Both fakes get the
// same seeded ids and manual clock and the same random workload of three users (notes with
// markdown, case and Unicode traps, long notes, collections, shares, updates, deletes, renamed and
// deleted collections, searches, related notes, collection searches, list pages with filters and
// cursors); every answer is compared but its request_id. Exit 1 and the first differences if any.
const other = process.env.OTHER;
if (!other) {
  console.error('same-answers: set OTHER to a checkout of the fake to compare with (built)');
  process.exit(2);
}
const otherBuild = await import(new URL(`file://${other.replace(/\/$/, '')}/dist/fake/index.js`).href);
const thisBuild = await import('../dist/fake/index.js');
const SEED = Number(process.env.SEED ?? 1);
const NOTES = Number(process.env.N ?? 3000);
function mk(mod) {
  const clock = new mod.ManualClock(Date.parse('2025-03-01T00:00:00Z'));
  return mod
    .createFake({ users: ['alice-token-1', 'bob-token-22', 'carol-token-3'], listen: false, seed: SEED, clock })
    .then((f) => ({ f, clock }));
}
/** Their fake (OTHER's build) and ours, each with its manual clock. */
const theirs = await mk(otherBuild);
const ours = await mk(thisBuild);
let s = SEED * 7919 + 1;
const rand = () => {
  s = (s + 0x6d2b79f5) | 0;
  let t = Math.imul(s ^ (s >>> 15), 1 | s);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const int = (n) => Math.floor(rand() * n);
const pick = (a) => a[int(a.length)];
const base = Array.from({ length: 400 }, (_, i) => `w${i.toString(36)}`);
const odd = [
  'Garden',
  'GARDEN',
  'İstanbul',
  'ß',
  'ẞtraße',
  'Σίσυφος',
  'ΟΔΟΣ',
  'café',
  'CAFÉ',
  '𝒳y',
  '😀',
  '中文',
  '٣٤',
  'a',
  'I',
  'x'.repeat(64),
  'y'.repeat(65),
  'naïve',
  'Ǆ',
  'ﬀ',
  'K',
];
const word = () => (rand() < 0.08 ? pick(odd) : base[Math.floor(base.length * rand() ** 3)]);
const words = (n) => Array.from({ length: n }, word).join(pick([' ', ' ', ' ', ', ', '\n', '-', '.']));
const content = () => {
  const title = (rand() < 0.3 ? pick(['# ', '## ', '#', '']) : '') + words(1 + int(5));
  const body = [words(int(60))];
  if (rand() < 0.3) body.push(`- [${pick([' ', 'x'])}] ${words(3)}`);
  if (rand() < 0.1) body.push(`![${words(1)}](http://e.com/${word()}.png)`);
  if (rand() < 0.1) body.push(`[${words(1)}](http://e.com/${word()}.pdf)`);
  if (rand() < 0.02) body.push(words(2000));
  return `${title}\n${body.join('\n')}`;
};
const tokens = ['alice-token-1', 'bob-token-22', 'carol-token-3'];
const strip = (v) => JSON.stringify(v, (k, x) => (k === 'request_id' ? undefined : x));
let n = 0,
  diffs = 0;
const call = (tok, method, url, body) => {
  const req = {
    method,
    url,
    headers: { authorization: `Bearer ${tok}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  };
  const ra = theirs.f.handle(req);
  const rb = ours.f.handle(req);
  n++;
  const sa = `${ra.status} ${strip(ra.json)}`,
    sb = `${rb.status} ${strip(rb.json)}`;
  if (sa !== sb) {
    diffs++;
    if (diffs < 5)
      console.log(
        'DIFF',
        method,
        url,
        JSON.stringify(body)?.slice(0, 200),
        '\n  theirs',
        sa.slice(0, 600),
        '\n  ours  ',
        sb.slice(0, 600),
      );
  }
  theirs.clock.advance(1);
  ours.clock.advance(1);
  return ra;
};
const notes = [[], [], []],
  colls = [[], [], []];
for (let u = 0; u < 3; u++)
  for (let i = 0; i < 15; i++) {
    const r = call(tokens[u], 'POST', '/v2/collections', {
      title: `${pick(['Garden', 'garden', 'İnbox', 'Trip'])} ${int(5)}`,
      ...(rand() < 0.8 ? { description: words(int(80)) } : {}),
    });
    if (r.status === 200) colls[u].push(r.json.id);
  }
// Shares: a collection of the first user opened to each of the others.
for (const f of [theirs, ours]) {
  f.f.fixtures.grant({ resource: 'collection', id: colls[0][0], token: tokens[1], level: 'access' });
  f.f.fixtures.grant({ resource: 'collection', id: colls[0][1], token: tokens[2], level: 'edit' });
}
const queries = () =>
  pick([
    words(1 + int(4)),
    word().toUpperCase(),
    `${word()} ${word()} zzzunknown`,
    words(200),
    '  ',
    'İ',
    'ẞ',
    'σ ς Σ',
    pick(odd),
  ]);
for (let i = 0; i < NOTES; i++) {
  const u = rand() < 0.7 ? 0 : 1 + int(2);
  const body = { content: content() };
  if (rand() < 0.2) body.collection_ids = [pick(colls[u])];
  if (rand() < 0.2) body.collection_titles = [pick(['garden 1', 'GARDEN 2', 'İnbox 3', 'trip 0', 'nope', 'Garden 4'])];
  const r = call(tokens[u], 'POST', '/v2/notes', body);
  if (r.status === 200) notes[u].push(r.json.id);
  const x = rand();
  if (x < 0.05 && notes[u].length) {
    const id = pick(notes[u]);
    const g = call(tokens[u], 'GET', `/v2/notes/${id}`);
    if (g.status === 200) call(tokens[u], 'PATCH', `/v2/notes/${id}`, { content: content(), version: g.json.version });
  } else if (x < 0.07 && notes[u].length) call(tokens[u], 'DELETE', `/v2/notes/${pick(notes[u])}`);
  else if (x < 0.15) call(tokens[int(3)], 'POST', '/v2/notes/search?limit=50', { query: queries() });
  else if (x < 0.2 && notes[u].length)
    call(tokens[u], 'GET', `/v2/notes/${pick(notes[u])}/related-notes?limit=${1 + int(20)}`);
  else if (x < 0.23) call(tokens[int(3)], 'POST', '/v2/collections/search', rand() < 0.2 ? {} : { query: queries() });
  else if (x < 0.235 && colls[u].length)
    call(
      tokens[u],
      'PATCH',
      `/v2/collections/${pick(colls[u])}`,
      rand() < 0.5 ? { description: words(int(60)) } : { title: `${pick(['Garden', 'Trip'])} ${words(2)}` },
    );
  else if (x < 0.237 && colls[u].length > 3) {
    const i = int(colls[u].length);
    call(tokens[u], 'DELETE', `/v2/collections/${colls[u][i]}`);
    colls[u].splice(i, 1);
  } else if (x < 0.24) {
    const r = call(tokens[u], 'POST', '/v2/collections', {
      title: `${pick(['Garden', 'garden', 'Trip'])} ${int(9)}`,
      description: words(int(80)),
    });
    if (r.status === 200) colls[u].push(r.json.id);
  } else if (x < 0.26) {
    const q = pick([
      '',
      '&contains_tasks=true',
      '&contains_images=true&contains_files=true',
      '&order_by=created_at',
      `&created_after=2025-03-01T00:00:0${int(9)}.000Z`,
    ]);
    let r = call(tokens[int(3)], 'GET', `/v2/notes?limit=${1 + int(100)}${q}`);
    for (let p = 0; p < 2 && r.json?.next_page; p++)
      r = call(tokens[int(3)], 'GET', `/v2/notes?limit=${1 + int(100)}${q}&page=${r.json.next_page}`);
  }
}
// A last sweep of related notes and searches over the whole corpus.
for (let i = 0; i < 300; i++) {
  const u = int(3);
  if (notes[u].length) call(tokens[u], 'GET', `/v2/notes/${pick(notes[u])}/related-notes?limit=20`);
  call(tokens[u], 'POST', '/v2/notes/search?limit=50', { query: queries() });
  call(tokens[u], 'POST', '/v2/collections/search', { query: queries() });
}
console.log(`seed ${SEED}: ${n} requests, ${diffs} differences`);
await theirs.f.close();
await ours.f.close();
process.exit(diffs ? 1 : 0);
