import { writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { extname } from 'node:path';
import { BATCH_FAULT_NAMES, FAULT_NAMES, FAULTS } from '../fake/faults/catalogue.js';
import { boundedLog } from '../fake/http/request-log.js';
import {
  type CreateFakeOptions,
  createFake,
  DataFileError,
  type EndpointSummary,
  type Fake,
  formatLogLine,
} from '../fake/index.js';
import { DomainError } from '../fake/service/errors.js';
import { flagsHelp, parseOptions } from '../kit/flags.js';
import { checkWritableFile } from '../kit/report-paths.js';
import { type ClientReportFormat, renderClientReport } from '../reporters/client-report.js';
import { ProfileError } from '../spec/profile.js';
import { UsageError } from '../spec/verdicts.js';
import { FAKE_FLAGS } from './fake-flags.js';
import { parseFlags } from './flags.js';

export const FAKE_USAGE = `Usage: notes-conformance fake [options]

Serves the reference fake of the Notes and Collections API v2.

${flagsHelp(FAKE_FLAGS)}`;

export interface FakeCommandIo {
  out: (line: string) => void;
  /** Problems while serving (a failed save); default: out. */
  err?: (line: string) => void;
  /** Bytes written to out but not yet taken by its reader (process.stdout.writableLength): bounds --log. */
  backlog?: () => number;
  /** Resolves when the server should stop (SIGINT, SIGTERM or SIGHUP in the real CLI). */
  untilStopped: () => Promise<void>;
}

export async function fakeCommand(argv: string[], io: FakeCommandIo): Promise<number> {
  const values = parseFlags(argv, parseOptions(FAKE_FLAGS), 'fake');
  if (values.help) {
    io.out(FAKE_USAGE);
    return 0;
  }
  if (values['list-faults']) {
    const held = BATCH_FAULT_NAMES.filter((n) => !FAULT_NAMES.includes(n));
    for (const name of [...FAULT_NAMES, ...held]) {
      const mark = held.includes(name) ? " (issue 32's held-out batch: not in the matrix)" : '';
      io.out(`${name.padEnd(58)} breaks ${FAULTS[name].rules.join(', ')}: ${FAULTS[name].does}${mark}`);
    }
    return 0;
  }
  for (const token of values.token ?? []) checkToken(token, '--token');
  const asked = values['client-report'];
  if (asked !== undefined) {
    if (!/\.(json|md|html?)$/i.test(asked))
      throw new UsageError(`--client-report FILE must end in .json, .md or .html (got ${asked})`);
    checkWritableFile('--client-report', asked);
  }
  if (values['admin-token'] !== undefined) checkToken(values['admin-token'], '--admin-token');
  const err = io.err ?? io.out;
  const log = values.log ? boundedLog(io.out, io.backlog ?? (() => 0)) : undefined;
  const options: CreateFakeOptions = {
    port: integer(values.port ?? '8080', '--port', 0, 65535),
    host: host(values.host ?? '127.0.0.1'),
    ...(values.profile ? { profile: values.profile } : {}),
    ...(values.fault ? { faults: values.fault } : {}),
    ...(values.seed !== undefined ? { seed: integer(values.seed, '--seed', 0, 2 ** 32 - 1) } : {}),
    ...(values['admin-token'] ? { adminToken: values['admin-token'] } : {}),
    ...(values.quota !== undefined
      ? { quota: { limit: integer(values.quota, '--quota', 0, Number.MAX_SAFE_INTEGER) } }
      : {}),
    ...(values['rate-limit'] ? { rateLimit: rateLimit(values['rate-limit']) } : {}),
    ...(values['no-cors'] ? { cors: false } : {}),
    ...(log ? { log: (entry) => log.write(formatLogLine(entry)) } : {}),
    renderClientReport: (data, format) => renderClientReport(data, format, 'the clients of this fake'),
    report: (line) => err(`notes-conformance fake: ${line}`),
    ...dataOptions(values),
  };
  let fake: Fake;
  let tokens: string[];
  try {
    fake = await createFake({ ...options, users: values.token ?? [] });
    tokens =
      values.token ??
      (fake.tokens.length > 0
        ? [...fake.tokens]
        : [fake.fixtures.createUser({ name: 'user-1' }).token, fake.fixtures.createUser({ name: 'user-2' }).token]);
  } catch (error) {
    throw startupError(error, options);
  }
  const reportFile = values['client-report'];
  io.out(`notes-conformance fake listening on ${fake.url}`);
  io.out(`profile:     ${fake.config.profile.name}`);
  io.out(`tokens:      ${tokens.join('  ')}`);
  io.out(`fixture API: ${fake.url}${fake.config.fixturesPrefix} (admin token ${fake.adminToken})`);
  io.out(`faults:      ${fake.config.faults.size === 0 ? 'none' : [...fake.config.faults].join(', ')}`);
  for (const line of parameterLines(fake)) io.out(line);
  if (options.state || options.data || options.generate)
    io.out(`data:        ${describeData(fake.data, options.state)}`);
  io.out(
    `client report: ${fake.url}/__fake/client-report?format=json|md|html${reportFile ? `, and ${reportFile} when stopped` : ''}`,
  );
  await io.untilStopped();
  if (reportFile) writeClientReport(fake, reportFile, err);
  try {
    await fake.close();
  } catch (error) {
    // The last save failed: say so, and do not exit 0 as if the session's data were kept.
    err(`notes-conformance fake: ${oneLine((error as Error).message)}`);
    return 1;
  } finally {
    log?.flush();
  }
  return 0;
}

/** The client report to FILE, in the format its extension names (.json, .md, .html). */
function writeClientReport(fake: Fake, file: string, err: (line: string) => void): void {
  try {
    writeFileSync(file, renderClientReport(fake.clientReport(), reportFormat(file), 'the clients of this fake'));
  } catch (error) {
    err(`notes-conformance fake: could not write the client report to ${file}: ${oneLine((error as Error).message)}`);
  }
}

function reportFormat(file: string): ClientReportFormat {
  const ext = extname(file).toLowerCase();
  if (ext === '.md') return 'md';
  if (ext === '.html' || ext === '.htm') return 'html';
  return 'json';
}

/** Why the fake could not start, as one line (exit 2); anything else is a bug and keeps its stack. */
function startupError(error: unknown, options: CreateFakeOptions): Error {
  const message = (error as Error).message ?? String(error);
  if (error instanceof ProfileError)
    return new UsageError(`${error.source}: invalid profile: ${error.problems.join('; ')}`);
  if (error instanceof DataFileError) return new UsageError(oneLine(message));
  if (/unknown fault/.test(message)) return new UsageError(oneLine(message));
  if (error instanceof DomainError) return new UsageError(`cannot create the users: ${oneLine(message)}`);
  switch ((error as NodeJS.ErrnoException).code) {
    case 'EADDRINUSE':
      return new UsageError(`port ${options.port} is in use; pick another with --port`);
    case 'EACCES':
      return new UsageError(`no permission to listen on port ${options.port}; pick one above 1023 with --port`);
    case 'EADDRNOTAVAIL':
      return new UsageError(`--host ${options.host} is not an address of this machine`);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_FAIL':
      return new UsageError(`--host ${options.host} does not resolve`);
    default:
      return error as Error;
  }
}

/** The same rule the fixture API applies to tokens, checked before anything starts. */
function checkToken(token: string, flag: string): void {
  if (token.length < 8 || token.length > 512 || !/^[\x21-\x7e]+$/.test(token)) {
    throw new UsageError(
      `${flag} must have 8 to 512 printable ASCII characters without spaces (got ${token.length} character(s))`,
    );
  }
}

function host(raw: string): string {
  if (
    isIP(raw) !== 0 ||
    /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}))*$/.test(raw)
  )
    return raw;
  throw new UsageError(`--host must be an IP address or a host name (got ${JSON.stringify(raw)})`);
}

function oneLine(text: string): string {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .join(' ');
}

/** What a client developer needs to call this instance: every endpoint with the names it accepts. */
function parameterLines(fake: Fake): string[] {
  const width = Math.max(...fake.endpoints.map((e) => e.path.length));
  const names = (e: EndpointSummary) =>
    [e.query.length > 0 ? `query: ${e.query.join(' ')}` : '', e.body.length > 0 ? `body: ${e.body.join(' ')}` : '']
      .filter(Boolean)
      .join('  ');
  const unknown = fake.config.unknownFields === 'ignore' ? 'ignored' : 'refused';
  return [
    `cors:        ${fake.config.cors ? 'on (any Origin)' : 'off'}`,
    `endpoints:   (unknown query and body names are ${unknown})`,
    ...fake.endpoints.map((e) => `  ${e.method.padEnd(6)} ${e.path.padEnd(width)}  ${names(e)}`.trimEnd()),
  ];
}

function integer(raw: string, flag: string, min: number, max: number): number {
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max)
    throw new UsageError(`${flag} must be an integer from ${min} to ${max} (got ${raw})`);
  return Number(raw);
}

function rateLimit(raw: string) {
  const m = /^(\d+)\/(\d+)$/.exec(raw);
  if (!m || Number(m[1]) < 1 || Number(m[2]) < 1)
    throw new UsageError(`--rate-limit must look like REQUESTS/SECONDS, such as 100/60 (got ${raw})`);
  const requests = Number(m[1]);
  const perSecond = requests / Number(m[2]);
  return { requests, requestsPerSecond: perSecond, complexity: requests * 10, complexityPerSecond: perSecond * 10 };
}

// ---- data flags (--data, --generate, --state) ----

function dataOptions(values: {
  data?: string;
  generate?: string;
  state?: string;
}): Pick<CreateFakeOptions, 'data' | 'generate' | 'state'> {
  return {
    ...(values.data !== undefined ? { data: values.data } : {}),
    ...(values.generate !== undefined ? { generate: integer(values.generate, '--generate', 0, 10_000_000) } : {}),
    // Saved on exit: a path it cannot be saved to must not lose a session's data at the end.
    ...(values.state !== undefined ? stateOption(values.state) : {}),
  };
}

function describeData(
  data: { restored: boolean; collections: number; notes: number },
  state: string | undefined,
): string {
  const loaded = data.restored
    ? `restored from ${state}`
    : `${data.notes} notes and ${data.collections} collections created for the first token`;
  return state && !data.restored
    ? `${loaded}; kept in ${state} (journal ${state}.journal)`
    : state
      ? `${loaded}; kept there (journal ${state}.journal)`
      : loaded;
}

/** --state FILE, checked now: a path it cannot be saved to must not lose a session's data on exit. */
function stateOption(path: string): { state: string } {
  checkWritableFile('--state', path);
  return { state: path };
}
