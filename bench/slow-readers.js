// Memory of the fake under clients that ask for its largest answer and never read it (a script,
// not a test: numbers depend on the machine).
//   npm run build && node bench/slow-readers.js
// Starts the built fake as its own process, fills one user's account so that GET /v2/notes?limit=100
// with content is its largest answer (100 notes x 200,000 characters, about 20 MB), then opens CLIENTS
// connections that send that request and read nothing. Prints the fake's RSS before, at its peak and
// at the end, and what the clients got. BIN=/other/checkout/bin/notes-conformance.js measures another build.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { connect } from 'node:net';

const CLIENTS = Number(process.env.CLIENTS ?? 40);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const BIN = process.env.BIN ?? new URL('../bin/notes-conformance.js', import.meta.url).pathname;
const TOKEN = 'reader-token-1';

const fake = spawn(process.execPath, [BIN, 'fake', '--port', '0', '--token', TOKEN], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const url = await new Promise((resolve, reject) => {
  let out = '';
  fake.stdout.on('data', (d) => {
    out += d;
    const m = /listening on (\S+)/.exec(out);
    if (m) resolve(m[1]);
  });
  fake.once('exit', (code) => reject(new Error(`the fake exited with ${code}`)));
});
const port = Number(new URL(url).port);
const rssMiB = () => {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${fake.pid}/status`, 'utf8'))[1]) / 1024;
  } catch {
    return Number.NaN;
  }
};

// Descriptors held: a client the fake never disconnects holds one for as long as it likes. Counted
// from the fake's side (its sockets in /proc): a paused client sees no end of stream until it reads.
const sockets = () => {
  try {
    return readdirSync(`/proc/${fake.pid}/fd`).filter((fd) => {
      try {
        return readlinkSync(`/proc/${fake.pid}/fd/${fd}`).startsWith('socket:');
      } catch {
        return false;
      }
    }).length;
  } catch {
    return Number.NaN;
  }
};

const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
for (let i = 0; i < 100; i++) {
  const res = await fetch(`${url}/v2/notes`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ content: `note ${i}\n${'x'.repeat(199_990)}` }),
  });
  if (res.status !== 200) throw new Error(`create answered ${res.status}`);
  await res.arrayBuffer();
}
const probe = await fetch(`${url}/v2/notes?limit=100&include_note_content=true`, { headers });
const largest = (await probe.arrayBuffer()).byteLength;
await new Promise((r) => setTimeout(r, 6_000));
const before = rssMiB();
// The listening socket and any the fake holds with no client of ours (keep-alive ones have timed out above).
const idleSockets = sockets();

const request = `GET /v2/notes?limit=100&include_note_content=true HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKEN}\r\n\r\n`;
const clients = Array.from({ length: CLIENTS }, () => {
  const client = { head: '', closed: false };
  const socket = connect(port, '127.0.0.1', () => socket.write(request));
  // Read nothing: only the first bytes are peeked at the end (resume), to see the status line.
  socket.pause();
  socket.on('error', () => {});
  socket.on('close', () => (client.closed = true));
  client.socket = socket;
  return client;
});

let peak = before;
let mostHeld = 0;
let allGoneAfter;
const started = performance.now();
const samples = [];
while (performance.now() - started < SECONDS * 1000) {
  await new Promise((r) => setTimeout(r, 100));
  const rss = rssMiB();
  peak = Math.max(peak, rss);
  const held = sockets() - idleSockets;
  if (held > mostHeld) mostHeld = held;
  if (held === 0 && allGoneAfter === undefined && mostHeld > 0) allGoneAfter = (performance.now() - started) / 1000;
  samples.push(rss);
}
const end = rssMiB();
const connected = sockets() - idleSockets;
// Now read: the status line tells what each client was answered; a closed one was cut off.
const statuses = await Promise.all(
  clients.map(
    (c) =>
      new Promise((resolve) => {
        let head = '';
        const done = () => resolve(/^HTTP\/1\.1 (\d+)/.exec(head)?.[1] ?? 'none');
        c.socket.on('data', (d) => {
          if (head.length < 64) head += d.toString('latin1');
        });
        c.socket.once('close', done);
        setTimeout(() => {
          c.socket.destroy();
          done();
        }, 2_000);
        c.socket.resume();
      }),
  ),
);
const count = (s) => statuses.filter((x) => x === s).length;
fake.kill('SIGTERM');
console.log(
  `largest answer: ${(largest / 1048576).toFixed(1)} MiB; ${CLIENTS} clients that read nothing, watched for ${SECONDS} s`,
);
console.log(
  `fake RSS: ${before.toFixed(0)} MiB before, ${peak.toFixed(0)} MiB at peak, ${end.toFixed(0)} MiB after ${SECONDS} s`,
);
console.log(
  `connections the fake held: at most ${mostHeld} of ${CLIENTS}, ${connected} after ${SECONDS} s` +
    (allGoneAfter === undefined ? '' : ` (none from ${allGoneAfter.toFixed(1)} s on)`),
);
console.log(
  `answers begun: ${count('200')} x 200, ${count('503')} x 503 (busy), ${count('none')} cut off before a byte was read`,
);
