// The App of `npm run bench:load`, in its own process so its peak RSS is its own: Probot with
// createNodeMiddleware (as `probot run` serves it) on 127.0.0.1, the built App (dist/doors/app.js), and
// the embedded queue or the Redis producer. Configured by the BENCH_APP environment variable (JSON);
// answers IPC commands { id, cmd } → { id, result } from scripts/bench-load.mjs. Logs JSON to stdout.
import { createServer } from 'node:http';
import { createNodeMiddleware, Probot, ProbotOctokit } from 'probot';
import { createRedlineApp } from '../dist/doors/app.js';

const cfg = JSON.parse(process.env.BENCH_APP);
/** Every wait of the GitHub client and the log fetch capped (a local GitHub; see bench-load.mjs). */
const sleep = (ms) => new Promise((r) => setTimeout(r, Math.min(ms, cfg.maxWaitMs)));
/** Probot's Octokit without the write spacing of its throttling plugin (≥1 s per write): the local GitHub has no limits. */
const UNTHROTTLED = ProbotOctokit.defaults((o) => ({ ...o, throttle: { ...o.throttle, enabled: false } }));

const probot = new Probot({ appId: cfg.appId, privateKey: cfg.privateKey, secret: cfg.secret, baseUrl: cfg.baseUrl, logLevel: 'info', logFormat: 'json', Octokit: UNTHROTTLED });
const app = createRedlineApp({
  cacheDir: cfg.cacheDir,
  artifactDir: cfg.artifactDir,
  queueDb: cfg.queueDb,
  concurrency: cfg.concurrency,
  ...(cfg.redisUrl ? { redisUrl: cfg.redisUrl } : {}),
  resilience: { sleep },
  logFetch: { sleep },
  retry: { backoffMs: cfg.retryBackoffMs },
});
const middleware = await createNodeMiddleware(app, { probot });
const server = createServer((req, res) => {
  void middleware(req, res, () => {
    res.writeHead(404);
    res.end();
  });
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));

const commands = {
  counts: () => app.queue.counts(),
  async idle() {
    await app.queue.idle();
    return { counts: await app.queue.counts(), deadLetters: await app.queue.deadLetters(1000) };
  },
  async close() {
    await app.queue.close();
    await new Promise((r) => server.close(() => r()));
    setTimeout(() => process.exit(0), 50); // a normal exit (a --cpu-prof profile is written then)
    return true;
  },
};
process.on('message', async ({ id, cmd }) => {
  try {
    process.send({ id, result: await commands[cmd]() });
  } catch (e) {
    process.send({ id, error: String(e?.stack ?? e) });
  }
});
process.send({ ready: true, port: server.address().port });
