#!/usr/bin/env node
// Builds a Docker image of the reference fake without any registry: a root file system holding
// the node binary, the libraries it links, the built kit and the packages the fake needs,
// imported with `docker import`.  Usage: node scripts/build-fake-image.js [tag]
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const tag = process.argv[2] ?? 'notes-conformance-fake:local';
const stage = mkdtempSync(join(tmpdir(), 'nc-image-'));
const app = join(stage, 'app');

function copyInto(path) {
  const target = join(stage, path);
  mkdirSync(dirname(target), { recursive: true });
  cpSync(path, target, { dereference: true });
}

try {
  if (!existsSync(join(root, 'dist/cli/main.js'))) throw new Error('run npm run build first');
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
  // the app: built code, spec data, and the runtime packages of the fake (ajv, ajv-formats, yaml and theirs)
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
  for (const name of ['ajv', 'ajv-formats', 'yaml']) visit(name);
  const tar = execFileSync('tar', ['-C', stage, '-c', '.'], { maxBuffer: 1 << 30 });
  execFileSync(
    'docker',
    ['import', '--change', 'CMD ["/usr/local/bin/node", "/app/image/entry.js"]', '--change', 'WORKDIR /app', '-', tag],
    { input: tar, stdio: ['pipe', 'inherit', 'inherit'] },
  );
  console.log(`built ${tag} (${seen.size} packages, ${(tar.length / 1048576).toFixed(1)} MiB)`);
} finally {
  rmSync(stage, { recursive: true, force: true });
}
