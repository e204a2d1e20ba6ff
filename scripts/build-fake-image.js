#!/usr/bin/env node
// Builds a Docker image of the reference fake without any registry: a root file system holding
// the node binary, the libraries it links, the built kit and the packages the fake needs,
// imported with `docker import`. Before the import, the staged app is started with this machine's
// node and must answer HTTP: a package the image lacks shows here, with node's own message,
// instead of as a container that never answers.
//   node scripts/build-fake-image.js [tag]     stage, try, import
//   node scripts/build-fake-image.js --check   stage and try only (no Docker needed)
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const checkOnly = process.argv[2] === '--check';
const tag = checkOnly ? undefined : (process.argv[2] ?? 'notes-conformance-fake:local');
const entry = join(root, 'image/entry.js');

/**
 * The packages the image's entry loads: bare specifiers of its static import graph. Dynamic
 * imports are not followed (they load commands the image never runs, such as testcontainers for
 * --image), so the image holds what the fake needs and no test runner.
 */
export function packagesOf(file) {
  const files = new Set();
  const packages = new Map();
  const imports =
    /(?:^|[\s;])(?:import|export)\s[^'"]*?\sfrom\s*['"]([^'"]+)['"]|(?:^|[\s;])import\s*['"]([^'"]+)['"]/gm;
  const visit = (path) => {
    if (files.has(path)) return;
    files.add(path);
    for (const match of readFileSync(path, 'utf8').matchAll(imports)) {
      const spec = match[1] ?? match[2];
      if (spec.startsWith('.')) visit(resolve(dirname(path), spec));
      else if (!spec.startsWith('node:')) {
        const name = spec
          .split('/')
          .slice(0, spec.startsWith('@') ? 2 : 1)
          .join('/');
        if (!packages.has(name)) packages.set(name, relative(root, path));
      }
    }
  };
  visit(file);
  return packages;
}

function freePort() {
  return new Promise((done, fail) => {
    const server = createServer().once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });
}

/** Starts the staged entry with this node, as the container would, and waits for an HTTP answer. */
async function tryStaged(app) {
  const port = await freePort();
  const child = spawn(process.execPath, [join(app, 'image/entry.js')], {
    cwd: app,
    env: { PATH: process.env.PATH, HOST: '127.0.0.1', PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise((done) => child.once('exit', (code) => done(code)));
  try {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('running'), 200))]);
      if (code !== 'running') throw new Error(`the staged fake exited (${code}) before it answered:\n${output.trim()}`);
      const res = await fetch(`http://127.0.0.1:${port}/v2/notes`).catch(() => undefined);
      if (res) {
        await res.arrayBuffer();
        return res.status;
      }
      if (Date.now() > deadline) throw new Error(`the staged fake did not answer within 30 s:\n${output.trim()}`);
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

async function build() {
  if (!existsSync(join(root, 'dist/cli/main.js'))) throw new Error('run npm run build first');
  const stage = mkdtempSync(join(tmpdir(), 'nc-image-'));
  const app = join(stage, 'app');
  const copyInto = (path) => {
    const target = join(stage, path);
    mkdirSync(dirname(target), { recursive: true });
    cpSync(path, target, { dereference: true });
  };
  try {
    // node and the shared libraries it loads
    const node = process.execPath;
    copyInto(node);
    const libs = execFileSync('ldd', [node], { encoding: 'utf8' })
      .split('\n')
      .map((l) => /(\/\S+) \(0x/.exec(l)?.[1])
      .filter(Boolean);
    for (const lib of libs) copyInto(lib);
    mkdirSync(join(stage, 'usr/local/bin'), { recursive: true });
    // A hard link, stored once by tar: the image stays one node binary large.
    if (node !== '/usr/local/bin/node') linkSync(join(stage, node), join(stage, 'usr/local/bin/node'));
    mkdirSync(join(stage, 'tmp'), { recursive: true });
    // the app: built code, spec data, and the packages the entry loads, with their dependencies
    for (const part of ['package.json', 'bin', 'dist', 'spec', 'image'])
      cpSync(join(root, part), join(app, part), { recursive: true });
    const seen = new Set();
    const visit = (name) => {
      if (seen.has(name)) return;
      seen.add(name);
      const dir = join(root, 'node_modules', name);
      cpSync(dir, join(app, 'node_modules', name), { recursive: true });
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      for (const dep of Object.keys(pkg.dependencies ?? {})) visit(dep);
    };
    const direct = packagesOf(entry);
    for (const name of direct.keys()) visit(name);
    const status = await tryStaged(app);
    console.log(
      `staged app answers HTTP ${status} (packages: ${[...direct.keys()].join(', ')}; ${seen.size} with theirs)`,
    );
    if (!tag) return;
    const tar = execFileSync('tar', ['-C', stage, '-c', '.'], { maxBuffer: 1 << 30 });
    execFileSync(
      'docker',
      [
        'import',
        '--change',
        'CMD ["/usr/local/bin/node", "/app/image/entry.js"]',
        '--change',
        'WORKDIR /app',
        '-',
        tag,
      ],
      { input: tar, stdio: ['pipe', 'inherit', 'inherit'] },
    );
    console.log(`built ${tag} (${seen.size} packages, ${(tar.length / 1048576).toFixed(1)} MiB)`);
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  build().catch((error) => {
    console.error(`build-fake-image: ${error.message}`);
    process.exitCode = 1;
  });
}
