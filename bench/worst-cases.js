// The worst inputs per text path (a script, not a test: numbers depend on the machine).
//   npm run build && node bench/worst-cases.js        (BENCH_NOTES=100000 by default;
//   BENCH_CASES='note search,titles' runs the cases of those paths only)
// The fake runs in a child process; the attacker owns BENCH_NOTES notes (the corpus its searches
// walk) and sends the largest inputs the limits allow (2 MiB bodies, 200,000-character notes,
// 10,000-character descriptions). For each case: the server time of the request, the CPU time of
// fake.handle in the server process (body parsing included; the worst of REPEAT runs; wall time
// beside it, which a busy shared machine inflates; the body is built and serialised in this
// process, as a client's would be, and handed to the server as text), then the same request over
// HTTP while a second user reads one of their notes by id, one GET after another until the attack
// is answered: that GET costs the same whatever the attacker holds, so the longest it waited says
// whether the slow request blocked everyone (a single GET sent at once was mostly answered while
// the 2 MiB body was still uploading).
// Budget: 100 ms of server time, judged on the process's CPU time (every thread); the main thread's
// share is printed beside it.
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { VOCAB } from './vocab.js';

const NOTES = Number(process.env.BENCH_NOTES ?? 100_000);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 3);
const BUDGET_MS = 100;
// Just under the body cap (fake/config.ts).
const CAP = 2 * 1024 * 1024 - 1024;
const ATTACKER = 'attacker-token-1';
const VICTIM = 'victim-token-01';

/** Text of `unit` repeated to about `chars` characters. */
const fill = (unit, chars) => unit.repeat(Math.floor(chars / unit.length));
const allTerms = VOCAB.join(' ');
const distinctWords = (n, prefix) => Array.from({ length: n }, (_, i) => `${prefix}${i.toString(36)}`).join(' ');
/** A body already serialised (JSON.stringify cannot write arrays nested a million deep). */
const raw = (text) => ({ raw: text });
const serialised = (body) => (body === undefined ? undefined : 'raw' in body ? body.raw : JSON.stringify(body));
/** A note create body of about `chars` characters: content, then fields named `name(i)` holding 1. */
const fields = (chars, name) => {
  const parts = ['{"content":"x"'];
  for (let i = 0, size = 15; size < chars; i++) {
    parts.push(`,"${name(i)}":1`);
    size += parts[parts.length - 1].length;
  }
  return `${parts.join('')}}`;
};
/** A JSON body of about 2 MiB whose `query` is the text `unit` repeated. */
const queryBody = (unit, extra = {}) => ({ ...extra, query: fill(unit, CAP - 200) });

/** Each case: a setup run once in the server (as the attacker, or the user a step names), then the timed request. */
const ALL_CASES = [
  {
    path: 'note search',
    what: `2 MiB query repeating all ${VOCAB.length} corpus terms (every posting walked)`,
    request: () => ['POST', '/v2/notes/search?limit=50', queryBody(`${allTerms} `)],
  },
  {
    path: 'note search',
    what: '2 MiB query of 600,000 distinct unknown terms',
    request: () => ['POST', '/v2/notes/search', { query: distinctWords(600_000, 'q').slice(0, CAP - 200) }],
  },
  {
    path: 'note search',
    what: '2 MiB query of one-letter terms "a a a ..."',
    request: () => ['POST', '/v2/notes/search', queryBody('a ')],
  },
  {
    path: 'case folding',
    what: 'note search, 2 MiB query of "İ" (lower-cases to two units each)',
    // Two UTF-8 bytes a character: half as many characters fill the body limit.
    request: () => ['POST', '/v2/notes/search', { query: fill('İ', (CAP - 200) / 2) }],
  },
  {
    path: 'case folding',
    what: 'note search, 2 MiB query of 64-letter terms of "ẞ" (folded, then kept)',
    // Three UTF-8 bytes a character.
    request: () => ['POST', '/v2/notes/search', { query: fill(`${'ẞ'.repeat(64)} `, (CAP - 200) / 3) }],
  },
  {
    path: 'related notes',
    what: 'a 200,000-character note holding every corpus term, right after a write (norms recomputed)',
    setup: [['POST', '/v2/notes', { content: `everything\n${fill(`${allTerms} `, 199_000)}` }]],
    request: (ids) => ['GET', `/v2/notes/${ids[0]}/related-notes?limit=20`],
    touch: true,
  },
  {
    path: 'related notes',
    what: 'a typical corpus note, right after a write (norms recomputed)',
    request: (_ids, corpus) => ['GET', `/v2/notes/${corpus[7]}/related-notes?limit=20`],
    touch: true,
  },
  {
    path: 'collection search',
    what: '10 collections of 10,000-character descriptions, 2 MiB query of the same words',
    setup: Array.from({ length: 10 }, (_, i) => [
      'POST',
      '/v2/collections',
      { title: `c${i}`, description: distinctWords(2_000, 'd').slice(0, 10_000) },
    ]),
    request: () => ['POST', '/v2/collections/search', { query: fill(`${distinctWords(2_000, 'd')} `, CAP - 200) }],
  },
  {
    path: 'collection search',
    what: '1,000 collections of 1,000-character titles and 10,000-character descriptions, 2 MiB query',
    setup: Array.from({ length: 1_000 }, (_, i) => [
      'POST',
      '/v2/collections',
      { title: fill(`t${i} `, 1_000), description: distinctWords(2_000, `e${i}`).slice(0, 10_000) },
    ]),
    request: () => ['POST', '/v2/collections/search', { query: fill(`${distinctWords(5_000, 'e1')} `, CAP - 200) }],
  },
  {
    path: 'titles',
    what: 'note create, a 200,000-character first line of "# " runs',
    request: () => ['POST', '/v2/notes', { content: fill('# ', 200_000) }],
  },
  {
    path: 'titles',
    what: 'note create, 2 MiB of one-character collection_titles (1,000 collections owned)',
    request: () => [
      'POST',
      '/v2/notes',
      {
        content: 'x',
        collection_titles: Array.from({ length: 800_000 }, (_, i) => String.fromCharCode(97 + (i % 26))),
      },
    ],
  },
  {
    path: 'titles',
    what: 'note create, 2 MiB of 1,000-character "İ" collection_titles',
    request: () => ['POST', '/v2/notes', { content: 'x', collection_titles: Array(2_000).fill('İ'.repeat(1_000)) }],
  },
  ...[
    ['![](a', 'image starts without targets'],
    ['[](x.pdf![](', 'file-link and image starts interleaved'],
    ['- [ ] \t', 'task markers on one line'],
    ['\n-\t[ ]', 'task lines without a closing space'],
  ].map(([unit, label]) => ({
    path: 'markdown detection',
    what: `note create, 200,000 characters of ${label}`,
    request: () => ['POST', '/v2/notes', { content: `x\n${fill(unit, 199_990)}` }],
  })),
  // A user with 10 notes while the attacker holds NOTES: their cost must not grow with the attacker's.
  {
    path: 'one user among many',
    what: `note list of a user with 10 notes (another holds ${NOTES.toLocaleString('en-US')})`,
    request: () => ['GET', '/v2/notes?limit=100'],
    as: VICTIM,
  },
  {
    path: 'one user among many',
    what: 'note search of a user with 10 notes, 2 MiB query of all corpus terms',
    request: () => ['POST', '/v2/notes/search?limit=50', queryBody(`${allTerms} `)],
    as: VICTIM,
  },
  {
    path: 'one user among many',
    what: 'related notes of a note of a user with 10 notes',
    request: (_ids, _corpus, victimNotes) => ['GET', `/v2/notes/${victimNotes[0]}/related-notes?limit=20`],
    as: VICTIM,
  },
  // Collections: another user's 20,000 must not weigh on the list or search of a user with 10.
  {
    path: 'one user among many',
    what: 'collection list of a user with 10 collections (another holds 20,000)',
    setup: [
      ...Array.from({ length: 20_000 }, (_, i) => [
        'POST',
        '/v2/collections',
        { title: `many ${i}`, description: 'shared words' },
      ]),
      ...Array.from({ length: 10 }, (_, i) => [
        'POST',
        '/v2/collections',
        { title: `own ${i}`, description: 'shared' },
        VICTIM,
      ]),
    ],
    request: () => ['GET', '/v2/collections?limit=100'],
    as: VICTIM,
  },
  {
    path: 'one user among many',
    what: 'collection search of a user with 10 collections (another holds 20,000)',
    request: () => ['POST', '/v2/collections/search', { query: 'shared words' }],
    as: VICTIM,
  },
  {
    path: 'cursors',
    what: 'note list, an 8 KiB forged cursor',
    request: () => [
      'GET',
      `/v2/notes?page=${Buffer.from(JSON.stringify([1, 'x'.repeat(6_000), 'f'])).toString('base64url')}`,
    ],
  },
  {
    path: 'cursors',
    what: `note list page after a cursor, contains filters, ${NOTES.toLocaleString('en-US')} notes`,
    request: () => ['GET', '/v2/notes?limit=100&contains_tasks=true&contains_images=true'],
  },
  {
    path: 'body parsing',
    what: 'note create, 2 MiB of nested arrays',
    request: () => {
      const depth = Math.floor((CAP - 200) / 2);
      return ['POST', '/v2/notes', raw(`{"content":"x","pad":${'['.repeat(depth)}${']'.repeat(depth)}}`)];
    },
  },
  {
    path: 'body parsing',
    what: 'note search, 2 MiB array of 1,400,000 empty objects',
    request: () => ['POST', '/v2/notes/search', { query: 'x', collections: Array(1_398_000).fill({}) }],
  },
  {
    path: 'body parsing',
    what: 'note create, 200,000 unknown fields',
    request: () => [
      'POST',
      '/v2/notes',
      { content: 'x', ...Object.fromEntries(Array.from({ length: 200_000 }, (_, i) => [`k${i}`, 1])) },
    ],
  },
  {
    path: 'body parsing',
    what: 'note create, 2 MiB of unknown fields (about 440,000)',
    request: () => ['POST', '/v2/notes', raw(fields(CAP - 200, (i) => `k${i.toString(36)}`))],
  },
  {
    path: 'body parsing',
    what: 'note create, 2 MiB of unknown array-index fields ("0", "1", ...)',
    request: () => ['POST', '/v2/notes', raw(fields(CAP - 200, (i) => String(i)))],
  },
  {
    path: 'body parsing',
    what: 'note create, 2 MiB array of 1,000,000 one-item arrays',
    request: () => ['POST', '/v2/notes', raw(`{"content":"x","pad":[${'[1],'.repeat(1_000_000)}[1]]}`)],
  },
  {
    path: 'body parsing',
    what: 'note create, 2 MiB array of 1,000,000 one-item arrays missing its last bracket (malformed)',
    request: () => ['POST', '/v2/notes', raw(`{"content":"x","pad":[${'[1],'.repeat(1_000_000)}[1]}`)],
  },
  {
    path: 'body parsing',
    what: 'note create, 2 MiB array of 520,000 [[[1]]] (too deep for a run of the scan)',
    request: () => ['POST', '/v2/notes', raw(`{"content":"x","pad":[${'[[[1]]],'.repeat(520_000)}[1]]}`)],
  },
  {
    path: 'body parsing',
    what: 'note create, 2 MiB of nested arrays missing their last bracket (malformed)',
    request: () => {
      const depth = Math.floor((CAP - 200) / 2);
      return ['POST', '/v2/notes', raw(`{"content":"x","pad":${'['.repeat(depth)}${']'.repeat(depth - 1)}}`)];
    },
  },
  {
    path: 'body parsing',
    what: 'note search, 1,000,000 empty objects, then a "__proto__" key',
    request: () => ['POST', '/v2/notes/search', raw(`{"query":"x","pad":[${'{},'.repeat(1_000_000)}{"__proto__":1}]}`)],
  },
  {
    path: 'body parsing',
    what: 'note search, 2 MiB array of 2,000,000 numbers as collections',
    request: () => ['POST', '/v2/notes/search', { query: 'x', collections: Array(2_096_000).fill(1) }],
  },
  {
    path: 'timestamps',
    what: 'note create, created_at of 2 MiB of digits after the seconds',
    request: () => ['POST', '/v2/notes', { content: 'x', created_at: `2025-01-01T00:00:00.${'9'.repeat(CAP - 200)}Z` }],
  },
  {
    path: 'timestamps',
    what: 'note search, 2 MiB time bound of "+" and digits',
    request: () => ['POST', '/v2/notes/search', { query: 'w1x', created_after: fill('+00:00', CAP - 200) }],
  },
];
/** BENCH_CASES=path,path... runs only the cases of those paths. */
const ONLY = process.env.BENCH_CASES?.split(',');
const CASES = ALL_CASES.filter((c) => !ONLY || ONLY.includes(c.path));

if (process.argv[2] === 'server') await serve();
else await main();

async function main() {
  const server = fork(new URL(import.meta.url), ['server'], {
    stdio: 'inherit',
    execArgv: ['--max-old-space-size=4096'],
  });
  const ask = (message) =>
    new Promise((resolve) => {
      server.once('message', resolve);
      server.send(message);
    });
  const { port, victimNote, victimNotes, corpus, startUp } = await new Promise((resolve) =>
    server.once('message', resolve),
  );
  console.log(`start-up (createFake, listening): ${startUp} ms`);
  const probe = `/v2/notes/${victimNote}`;
  const alone = [];
  for (let i = 0; i < 20; i++) alone.push(await raced(port, probe));
  console.log(`second user's GET with no other request: at most ${Math.max(...alone)} ms of 20`);
  const rows = [];
  for (let i = 0; i < CASES.length; i++) {
    // The case's state is made in the server; its request is built and serialised here, as a
    // client's would be: building a 2 MiB body in the server left the collector work that the
    // first timed request paid for (a tail of 100 ms and more, once in several runs).
    const { ids } = await ask({ setup: i });
    const req = CASES[i].request(ids, corpus, victimNotes);
    const [method, url, body] = req;
    const { ms, runs, main, wall, status } = await ask({ case: i, method, url, text: serialised(body) });
    const blocked = await raced(port, probe, req, CASES[i].as);
    rows.push([CASES[i].path, CASES[i].what, ms, runs, main, wall, status, blocked]);
    const cpu = `${ms} ms CPU (${runs.join(', ')}), main thread ${main} ms, ${wall} ms wall`;
    console.log(`${CASES[i].path}: ${CASES[i].what}: ${cpu} (${status}), second user waited ${blocked} ms`);
  }
  server.kill();
  console.log(`\nWorst cases per text path at ${NOTES.toLocaleString('en-US')} notes (budget ${BUDGET_MS} ms)\n`);
  const columns = [
    'path',
    'worst input',
    `server CPU time, worst of ${REPEAT} (each run)`,
    'of it on the main thread (10 ms steps)',
    'wall',
    'status',
    'second user waited',
  ];
  console.log(`| ${columns.join(' | ')} |`);
  console.log(`|${'---|'.repeat(columns.length)}`);
  for (const [path, what, ms, runs, main, wall, status, blocked] of rows) {
    const waited = `${blocked} ms${blocked > BUDGET_MS ? ' (blocked)' : ''}`;
    const cells = [path, what, `${ms} ms (${runs.join(', ')})`, `${main} ms`, `${wall} ms`, status, waited];
    console.log(`| ${cells.join(' | ')} |`);
  }
  const over = rows.filter((r) => r[2] > BUDGET_MS);
  console.log(
    over.length === 0 ? `\nNo case above ${BUDGET_MS} ms.` : `\nOVER BUDGET: ${over.map((r) => r[1]).join('; ')}`,
  );
}

/**
 * The attack over HTTP (if any) and, from 2 ms later until it is answered, the second user's GETs
 * one after another: answers the longest a GET waited, in ms.
 */
async function raced(port, probe, [method, url, body] = [], as = ATTACKER) {
  const send = (m, u, b, token) =>
    new Promise((resolve) => {
      const payload = serialised(b);
      const started = performance.now();
      const req = request(
        {
          port,
          host: '127.0.0.1',
          method: m,
          path: u,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(performance.now() - started));
        },
      );
      req.on('error', () => resolve(performance.now() - started));
      req.end(payload);
    });
  let answered = method === undefined;
  const attack = answered ? undefined : send(method, url, body, as).then(() => (answered = true));
  await new Promise((r) => setTimeout(r, 2));
  let waited = 0;
  do waited = Math.max(waited, await send('GET', probe, undefined, VICTIM));
  while (!answered);
  await attack;
  return Math.round(waited);
}

/**
 * CPU time of this process's main thread, in ms, from /proc (Linux; 10 ms steps). process.cpuUsage
 * counts every thread, V8's compiler and GC helpers too: on a request's first run they add tens of
 * ms that block nobody, while the main thread's time is what another user waits for.
 */
function mainThreadMs() {
  try {
    const fields = readFileSync(`/proc/${process.pid}/task/${process.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

async function serve() {
  const { createFake } = await import('../dist/fake/index.js');
  const started = performance.now();
  const fake = await createFake({ users: [ATTACKER, VICTIM], port: 0 });
  const startUp = Math.round(performance.now() - started);
  /** `text` is the body already serialised (the timed call), else `body` is. */
  const call = (method, url, body, text = body === undefined ? undefined : JSON.stringify(body), as = ATTACKER) =>
    fake.handle({
      method,
      url,
      headers: { authorization: `Bearer ${as}`, 'content-type': 'application/json' },
      ...(text === undefined ? {} : { body: text }),
    });
  let seed = 42;
  const rand = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const words = (n) => Array.from({ length: n }, () => VOCAB[Math.floor(VOCAB.length * rand() ** 3)]).join(' ');
  const corpus = [];
  for (let i = 0; i < NOTES; i++) {
    const id = call('POST', '/v2/notes', { content: `${words(3)}\n${words(27)}\n- [ ] ${words(2)}` }).json.id;
    if (corpus.length < 100) corpus.push(id);
  }
  const victimNote = fake.handle({
    method: 'POST',
    url: '/v2/notes',
    headers: { authorization: `Bearer ${VICTIM}`, 'content-type': 'application/json' },
    body: JSON.stringify({ content: 'victim note' }),
  }).json.id;
  const victimNotes = Array.from(
    { length: 10 },
    () => call('POST', '/v2/notes', { content: `${words(3)}\n${words(27)}` }, undefined, VICTIM).json.id,
  );
  process.on('message', (message) => {
    if ('setup' in message) {
      const ids = (CASES[message.setup].setup ?? []).map(([m, u, b, as]) => call(m, u, b, undefined, as).json.id);
      process.send({ ids });
      return;
    }
    const { case: i, method, url, text } = message;
    const c = CASES[i];
    let worst = 0;
    let main = 0;
    let wall = 0;
    let status = 0;
    const runs = [];
    for (let r = 0; r < REPEAT; r++) {
      // A write first where the case is about caches a write invalidates.
      if (c.touch) call('POST', '/v2/notes', { content: `touch ${r}` });
      // CPU time of this process (the request is handled synchronously): the machine may be shared,
      // and wall time would count other processes' turns on the cores.
      const cpu = process.cpuUsage();
      const mainBefore = mainThreadMs();
      const started = performance.now();
      status = call(method, url, undefined, text, c.as).status;
      const used = process.cpuUsage(cpu);
      runs.push(Math.round((used.user + used.system) / 1000));
      worst = Math.max(worst, (used.user + used.system) / 1000);
      // Ticks of 10 ms: a short request may be charged a whole tick; it cannot exceed the process's time.
      main = Math.max(main, Math.min(mainThreadMs() - mainBefore, Math.round((used.user + used.system) / 1000)));
      wall = Math.max(wall, performance.now() - started);
    }
    if (c.touch) call('POST', '/v2/notes', { content: 'touch again' });
    process.send({ ms: Math.round(worst), runs, main, wall: Math.round(wall), status });
  });
  process.send({ port: Number(new URL(fake.url).port), victimNote, victimNotes, corpus, startUp });
}
