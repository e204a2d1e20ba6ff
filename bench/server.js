// A benchmark target in its own process: `bare` (node:http answering a fixed JSON note), `fake`
// (the reference fake, seeded in-process with N notes) or `generate` (the fake started with
// generate: N, as `fake --generate N`). Reports its port, seeding time and RSS over IPC.
import { createServer } from 'node:http';

const [mode, seedArg] = process.argv.slice(2);
const seedNotes = Number(seedArg ?? 0);
const TOKEN = 'bench-token-0001';

function words(n, rand, vocab) {
  const out = [];
  for (let i = 0; i < n; i++) {
    // Zipf-like: low indexes are common words, high ones rare.
    const r = rand();
    out.push(vocab[Math.floor(vocab.length * r * r * r)]);
  }
  return out.join(' ');
}

function mulberry(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

import { VOCAB } from './vocab.js';

if (mode === 'bare') {
  const note = JSON.stringify({
    id: '0b6f7a52-3c1e-4f0e-9d7a-1b2c3d4e5f60',
    title: 'Groceries',
    content: 'Groceries\n- milk\n- eggs',
    created_at: '2025-04-11T04:47:14.457Z',
    updated_at: '2025-04-11T04:47:14.457Z',
    version: 1,
    collection_ids: [],
    trashed_at: null,
    audio_recording_ids: [],
    attachment_metadata: [],
  });
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const body = JSON.stringify({ ...JSON.parse(note), request_id: Math.random().toString(36).slice(2) });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
  });
  server.keepAliveTimeout = 30_000;
  server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
} else if (mode === 'generate') {
  // What `notes-conformance fake --generate N` does: json-schema-faker bodies through the create operations.
  const { createFake } = await import('../dist/fake/index.js');
  const started = performance.now();
  const fake = await createFake({ users: [TOKEN], port: 0, seed: 42, generate: seedNotes });
  const ids = [...fake.store.notes.keys()].slice(0, 1000);
  process.send({
    port: Number(new URL(fake.url).port),
    ids,
    seedMs: Math.round(performance.now() - started),
    rss: process.memoryUsage().rss,
  });
} else {
  const { createFake } = await import('../dist/fake/index.js');
  const fake = await createFake({ users: [TOKEN], port: 0 });
  const rand = mulberry(42);
  const ids = [];
  const started = performance.now();
  for (let i = 0; i < seedNotes; i++) {
    const content = `${words(3, rand, VOCAB)}\n${words(27, rand, VOCAB)}`;
    const r = fake.handle({
      method: 'POST',
      url: '/v2/notes',
      headers: { authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify({ content }),
    });
    if (ids.length < 1000) ids.push(r.json.id);
  }
  process.send({
    port: Number(new URL(fake.url).port),
    ids,
    seedMs: Math.round(performance.now() - started),
    rss: process.memoryUsage().rss,
  });
}
