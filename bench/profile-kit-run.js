// Where a kit run's time goes (a script, not a test): one full run against the embedded fake with
// V8's CPU profiler in the run process (which also serves the fake and drives vitest) and in its
// check worker (NOTES_CPU_PROFILE), then per process: busy and idle time, busy time by owner
// (our directories, npm packages, node's internals, system calls), the heaviest functions, and a
// timeline in seconds (is the worker waiting on the run process, on a timer, or working?).
//   npm run build && node bench/profile-kit-run.js [extra kit flags...]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const bin = new URL('../bin/notes-conformance.js', import.meta.url).pathname;
const root = new URL('..', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'nc-profile-'));
try {
  const started = performance.now();
  const out = spawnSync(
    process.execPath,
    ['--cpu-prof', `--cpu-prof-dir=${dir}`, bin, '--quiet', ...process.argv.slice(2)],
    {
      encoding: 'utf8',
      env: { ...process.env, NOTES_CPU_PROFILE: dir },
    },
  );
  const wall = (performance.now() - started) / 1000;
  if (out.status !== 0) console.error(out.stdout, out.stderr);
  console.log(`run: ${wall.toFixed(1)} s wall, exit ${out.status}\n`);
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  // The run process starts first: its profile has the earliest start time.
  const profiles = files
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')))
    .sort((a, b) => a.startTime - b.startTime);
  const t0 = profiles[0]?.startTime ?? 0;
  for (const [i, p] of profiles.entries())
    report(p, i === 0 ? 'run process (kit, vitest, embedded fake)' : `check worker ${i}`, t0);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

/** Who owns a frame: one of our directories, an npm package, node itself, or native code. */
function owner(frame) {
  const url = frame.url ?? '';
  if (frame.functionName === '(idle)') return '(idle)';
  if (frame.functionName === '(garbage collector)') return '(gc)';
  if (frame.functionName === '(program)') return '(program)';
  const pkg = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (pkg) return `npm ${pkg[1]}`;
  if (url.startsWith('node:')) return 'node internals';
  if (url.includes(root))
    return url
      .slice(url.indexOf(root) + root.length)
      .split('/')
      .slice(0, 2)
      .join('/');
  return url ? url : 'native (system calls, V8 builtins)';
}

function report(p, name, t0) {
  const nodes = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const byOwner = new Map();
  const byFunction = new Map();
  const timeline = new Map();
  let t = p.startTime;
  for (let i = 0; i < p.samples.length; i++) {
    const dt = p.timeDeltas[i] ?? 0;
    t += dt;
    const frame = nodes.get(p.samples[i]).callFrame;
    const who = owner(frame);
    byOwner.set(who, (byOwner.get(who) ?? 0) + dt);
    const second = Math.floor((t - t0) / 1e6);
    const slot = timeline.get(second) ?? { busy: 0, owners: new Map() };
    if (who !== '(idle)') {
      slot.busy += dt;
      // The nearest frame of ours above a sample says which part of the kit or fake it serves.
      let id = p.samples[i];
      let ours = who;
      while (id !== undefined) {
        const f = nodes.get(id).callFrame;
        if ((f.url ?? '').includes(root) && !(f.url ?? '').includes('node_modules')) {
          ours = owner(f);
          break;
        }
        id = parent.get(id);
      }
      slot.owners.set(ours, (slot.owners.get(ours) ?? 0) + dt);
      const key = `${frame.functionName || '(anonymous)'} ${(frame.url ?? '').split('/').slice(-2).join('/')}:${frame.lineNumber + 1}`;
      byFunction.set(key, (byFunction.get(key) ?? 0) + dt);
    }
    timeline.set(second, slot);
  }
  const ms = (us) => `${Math.round(us / 1000)}`.padStart(6);
  const total = p.endTime - p.startTime;
  const idle = byOwner.get('(idle)') ?? 0;
  console.log(
    `== ${name}: ${(total / 1e6).toFixed(1)} s, busy ${ms(total - idle).trim()} ms, idle ${ms(idle).trim()} ms`,
  );
  console.log('busy time by owner (ms):');
  for (const [who, us] of [...byOwner]
    .filter(([w]) => w !== '(idle)')
    .sort((a, b) => b[1] - a[1])
    .slice(0, 15))
    console.log(`  ${ms(us)}  ${who}`);
  console.log('heaviest functions, self time (ms):');
  for (const [fn, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`  ${ms(us)}  ${fn}`);
  console.log('timeline (second since the run started: busy ms, then where):');
  for (const [second, slot] of [...timeline].sort((a, b) => a[0] - b[0])) {
    const where = [...slot.owners]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 3)
      .map(([w, us]) => `${w} ${Math.round(us / 1000)}`)
      .join(', ');
    console.log(`  ${String(second).padStart(3)} s ${ms(slot.busy)}  ${where}`);
  }
  console.log('');
}
