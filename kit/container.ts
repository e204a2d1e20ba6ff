import { createServer } from 'node:net';
import { request } from 'undici';
import { UsageError } from '../spec/verdicts.js';

export interface StartedContainer {
  url: string;
  stop(): Promise<void>;
}

/** A free TCP port on 127.0.0.1 (bound, read, released). */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** testcontainers' reasons in the words of someone who only ran the kit with --image. */
function containerProblem(error: Error): string {
  const message = error.message.split('\n')[0]!;
  if (/container runtime strategy/i.test(message)) {
    const where = process.env.DOCKER_HOST ? `DOCKER_HOST=${process.env.DOCKER_HOST}` : 'the local Docker socket';
    return `Docker is not reachable (${where}); start Docker, point DOCKER_HOST at it, or test a running server with --target URL`;
  }
  if (/no such image|pull access denied|manifest unknown|not found/i.test(message))
    return `the image is not available (${message})`;
  return message;
}

/** What the container printed last (why it never answered, usually), indented, or nothing. */
async function lastLogLines(started: { logs(): Promise<NodeJS.ReadableStream> }): Promise<string> {
  try {
    const stream = await started.logs();
    let text = '';
    await new Promise<void>((done) => {
      const timer = setTimeout(done, 2000);
      stream.on('data', (chunk: Buffer | string) => {
        text += chunk.toString();
      });
      stream.on('end', () => {
        clearTimeout(timer);
        done();
      });
      stream.on('error', () => done());
    });
    // Stack frames say where, not why: the error lines are what a user needs.
    const lines = text
      .trim()
      .split('\n')
      .filter((line) => line.trim() && !/^\s+at /.test(line))
      .slice(-8);
    return lines.length ? `; its last output:\n  ${lines.join('\n  ')}` : '; it printed nothing';
  } catch {
    return '';
  }
}

/**
 * Starts the image with testcontainers on the host network (the machines here have no bridge),
 * telling the server where to listen with PORT, and waits until it answers HTTP.
 */
export async function startImage(image: string, port?: number): Promise<StartedContainer> {
  // Settings for testcontainers itself, which reads them from the environment: no Docker Hub here,
  // so no Ryuk reaper (the kit stops its container itself), and no bridge network to find the
  // host by (containers run on the host network, so the host is 127.0.0.1).
  process.env.TESTCONTAINERS_RYUK_DISABLED ??= 'true';
  process.env.TESTCONTAINERS_HOST_OVERRIDE ??= '127.0.0.1';
  const { GenericContainer } = await import('testcontainers');
  const listen = port ?? (await freePort());
  let started: Awaited<ReturnType<InstanceType<typeof GenericContainer>['start']>>;
  try {
    // Host networking exposes no ports, so the default wait returns at once; HTTP is polled below.
    started = await new GenericContainer(image)
      .withNetworkMode('host')
      .withEnvironment({ PORT: String(listen), HOST: '127.0.0.1' })
      .withStartupTimeout(60_000)
      .start();
  } catch (error) {
    throw new UsageError(`cannot start image ${image}: ${containerProblem(error as Error)}`);
  }
  const url = `http://127.0.0.1:${listen}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const res = await request(`${url}/v2/notes`, { method: 'GET', headersTimeout: 2000, bodyTimeout: 2000 });
      await res.body.dump();
      break;
    } catch {
      if (Date.now() > deadline) {
        const said = await lastLogLines(started);
        await started.stop({ timeout: 5_000 }).catch(() => {});
        throw new UsageError(
          `image ${image} did not answer HTTP on ${url} within 60 s (it must listen on $HOST:$PORT)${said}`,
        );
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  return {
    url,
    stop: async () => {
      await started.stop({ timeout: 5_000 });
    },
  };
}
