#!/usr/bin/env node
// No false failures over many seeds: every valid variant of the fake (clean, divergent, hosted),
// with its profile (the embedded fake, which tells the kit its profile) and without (served on a
// port and run as a remote target with two tokens and no --profile), must read 0 fail and 0 error
// on every seed. test/kit/clean-run.test.ts runs one seed of each; this runs a range. Prints one
// line per run and the runs that failed, writes reports/valid-fakes-sweep-FIRST-LAST.json, exits 1 on any.
//   node scripts/sweep-valid-fakes.js [FIRST [LAST]]      (default seeds 1 to 50; after npm run build)
import { mkdirSync, writeFileSync } from 'node:fs';

const { createFake } = await import('../dist/fake/index.js');
const { runKit } = await import('../dist/kit/run.js');
const [first, last] = [Number(process.argv[2] ?? 1), Number(process.argv[3] ?? process.argv[2] ?? 50)];
const PROFILES = ['fake', 'fake-divergent', 'hosted'];
const TOKENS = ['sweep-primary-token', 'sweep-secondary-token'];

// One served fake per profile, reused by every seed: each run must leave it as it found it.
const served = new Map();
for (const profile of PROFILES)
  served.set(profile, await createFake({ profile, users: TOKENS, adminToken: 'sweep-admin-token' }));

const variants = PROFILES.flatMap((profile) => [
  {
    name: `${profile}, its profile`,
    args: ['--fake-profile', profile, ...(profile === 'hosted' ? ['--profile', 'hosted'] : [])],
  },
  {
    name: `${profile}, no profile`,
    args: ['--target', served.get(profile).url, '--token', TOKENS[0], '--secondary-token', TOKENS[1]].concat([
      '--requests-per-second',
      '1000',
      '--request-budget',
      '100000',
    ]),
  },
]);

const runs = [];
for (let seed = first; seed <= last; seed++)
  for (const variant of variants) {
    const started = Date.now();
    const { exitCode, report } = await runKit(['--quiet', '--seed', String(seed), ...variant.args], {}, () => {});
    const bad = report.rules.filter((r) => r.verdict === 'fail' || r.verdict === 'error');
    const problems = [
      ...bad.map((r) => `${r.id}: ${r.verdict} (${r.reason})`),
      ...report.run_errors.map((e) => `run error: ${typeof e === 'string' ? e : JSON.stringify(e)}`),
      ...(report.leftovers > 0 ? [`${report.leftovers} left behind`] : []),
      ...(exitCode !== 0 ? [`exit ${exitCode}`] : []),
    ];
    const ms = Date.now() - started;
    runs.push({ seed, variant: variant.name, exitCode, requests: report.requests, ms, problems });
    process.stdout.write(
      `seed ${String(seed).padStart(2)} ${variant.name.padEnd(26)} ${problems.length === 0 ? 'ok ' : 'BAD'}` +
        ` ${report.summary.pass} pass, ${report.summary.fail} fail, ${report.summary.error} error,` +
        ` ${report.requests?.total ?? report.requests} requests, ${ms} ms${problems.length ? `\n  ${problems.join('\n  ')}` : ''}\n`,
    );
  }
for (const fake of served.values()) await fake.close();

const failed = runs.filter((r) => r.problems.length > 0);
process.stdout.write(
  `\n${runs.length - failed.length} of ${runs.length} runs clean (seeds ${first} to ${last}, ${variants.length} variants)\n`,
);
mkdirSync('reports', { recursive: true });
writeFileSync(`reports/valid-fakes-sweep-${first}-${last}.json`, `${JSON.stringify({ first, last, runs }, null, 2)}\n`);
process.exitCode = failed.length > 0 ? 1 : 0;
