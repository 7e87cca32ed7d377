/**
 * The App started the way users start it (`npm start` = `probot run ./dist/doors/app.js`): a child
 * process configured only through the environment, talking to the local GitHub through GHE_HOST.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { FakeGitHub } from '../helpers/fake-github/index.js';

const ROOT = join(import.meta.dirname, '../..');
const PROBOT_BIN = join(ROOT, 'node_modules/probot/bin/probot.js');

/**
 * Builds dist/ when a test file is run on its own; under `npm test` the build ran just before vitest,
 * and building again while other test files load dist/ would race with them.
 */
export function ensureBuilt(): void {
  if (process.env.npm_lifecycle_event === 'test') return;
  execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'pipe', timeout: 60_000 });
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Polls `check` every 100 ms until it is truthy or `ms` have passed. */
export async function until(check: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await sleep(100);
  }
  return check();
}

export async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as AddressInfo).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

export interface ProbotChild {
  child: ChildProcess;
  url: string;
  output(): string;
  /** SIGTERM, then SIGKILL after 3 s. */
  stop(): Promise<void>;
}

/** Starts `probot run` on a free port (or `port`) and waits until it answers HTTP. */
export async function startProbotRun(o: { fake: FakeGitHub; privateKey: string; secret: string; cacheDir: string; port?: number; env?: Record<string, string> }): Promise<ProbotChild> {
  const port = o.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  // A clean environment: only what `npm start` needs (no ANTHROPIC_API_KEY, no NODE_ENV from the runner).
  const child = spawn(process.execPath, [PROBOT_BIN, 'run', './dist/doors/app.js'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: o.cacheDir,
      APP_ID: String(o.fake.state.app.id),
      PRIVATE_KEY: o.privateKey,
      WEBHOOK_SECRET: o.secret,
      GHE_HOST: o.fake.host,
      GHE_PROTOCOL: 'http',
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      REDLINE_CACHE_DIR: o.cacheDir,
      ...o.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  let exited: number | null | undefined;
  child.once('exit', (code) => (exited = code));
  const listening = await until(async () => {
    if (exited !== undefined) return true;
    try {
      await fetch(`${url}/`, { signal: AbortSignal.timeout(1000) });
      return true;
    } catch {
      return false;
    }
  }, 15_000);
  if (exited !== undefined || !listening) throw new Error(`probot run did not start listening on ${url} (exit code ${exited}):\n${output}`);
  return {
    child,
    url,
    output: () => output,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGTERM');
      await Promise.race([gone, sleep(3000).then(() => child.kill('SIGKILL'))]);
    },
  };
}
