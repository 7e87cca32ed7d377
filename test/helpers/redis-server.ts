/**
 * A real redis-server (Debian's package; `.ci/run` installs it) on a free loopback port, with no
 * persistence, for the queue's tests. Without redis-server the tests that need it are skipped
 * locally with a note, and fail in CI (CI=1), where it must be there.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';

export const hasRedis = ((): boolean => {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** Skip locally without redis-server; in CI its absence is a failure (the describe runs and fails to start it). */
export const skipWithoutRedis = !hasRedis && !process.env.CI;
if (skipWithoutRedis) console.warn('redis-server is not installed: the Redis queue tests are skipped (apt-get install redis-server; .ci/run installs it)');

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export interface RedisServer {
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--loglevel', 'warning'], { stdio: 'ignore' });
  const url = `redis://127.0.0.1:${port}`;
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => {});
  for (let i = 0; ; i++) {
    try {
      await probe.connect();
      await probe.ping();
      break;
    } catch (e) {
      if (i > 100 || child.exitCode !== null) throw new Error(`redis-server did not start on ${port}: ${(e as Error).message}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  probe.disconnect();
  return {
    url,
    process: child,
    stop: async () => {
      child.kill('SIGKILL');
      await new Promise((r) => (child.exitCode !== null ? r(undefined) : child.once('exit', r)));
    },
  };
}
