/**
 * The GitHub App door (Probot). Thin by design (DESIGN.md §1): it translates a webhook into a queued
 * task (src/tasks/task.ts) and answers GitHub at once; src/tasks/run-task.ts does the work, here from
 * the embedded SQLite queue, or in `redline worker` processes when REDIS_URL is set.
 */
import type { HistoryCache } from '../github/history.js';
import type { ApplicationFunction, ApplicationFunctionOptions, Probot } from 'probot';
import { anyBot, type IsOurs } from '../github/comments.js';
import type { GitHub } from '../github/client.js';
import type { JobDeps } from '../github/handle-failed-job.js';
import type { ResilienceOptions } from '../github/resilience.js';
import { openQueue } from '../queue/open-queue.js';
import type { JobQueue } from '../queue/queue.js';
import { runTask } from '../tasks/run-task.js';
import { diagnoseJob, type Task } from '../tasks/task.js';
import { appConfigFromEnv, type AppConfig } from './app-config.js';
import { RedisOutcomeFeed } from '../service/outcome-feed.js';
import { RedlineService, serviceOptionsFromEnv, type ServiceOptions } from '../service/service.js';
import { registerCheckRunTrigger } from './check-run-trigger.js';
import { registerCommands } from './command.js';
import { registerFixedMarking } from './fixed-trigger.js';
import { logUnhandled, readPayload, WorkflowJobCompleted } from './payloads.js';
import { capWebhookBodies } from './webhook-guard.js';

export interface AppOptions extends Partial<AppConfig>, ServiceOptions {
  /** Passed to the job handler (tests shorten the log retry waits). */
  logFetch?: JobDeps['logFetch'];
  /** Retry waits of the GitHub client (tests shorten them). */
  resilience?: ResilienceOptions;
  /** The queue's retry policy (tests shorten the backoff). */
  retry?: { attempts?: number; backoffMs?: number };
}

/** Builds the Probot app function; `export default` below uses the environment's settings. */
export function createRedlineApp(opts: AppOptions = {}): ApplicationFunction & { readonly queue: JobQueue<Task> } {
  const config = { ...appConfigFromEnv(), ...opts };
  let queue: JobQueue<Task> | undefined;
  const fn = (app: Probot, options?: ApplicationFunctionOptions): void => {
    // The 25 MB body cap and the JSON-object check, in front of the webhook middleware Probot mounts.
    capWebhookBodies(app);
    const isOurs = lazyIsOurs(app);
    const depth = async (): Promise<number> => {
      const c = await q.counts();
      return c.waiting + c.running;
    };
    // Status page, feedback and artifacts (src/service), served by the App's own HTTP server.
    const feed = config.redisUrl ? new RedisOutcomeFeed(config.redisUrl) : undefined;
    const service = new RedlineService({ ...serviceOptionsFromEnv(), ...opts }, { queueDepth: depth, deadLetters: () => q.deadLetters(), ...(feed ? { pullOutcomes: () => feed.pull() } : {}), auth: (id) => app.auth(id), isOurs, webhookSecret: process.env.WEBHOOK_SECRET, warn: (m) => app.log.warn(m) });
    // One history cache per App: re-deliveries and a matrix's jobs of one commit share their lookups.
    const historyCache: HistoryCache = new Map();
    const q: JobQueue<Task> = (queue = openQueue<Task>(config, {
      ...opts.retry,
      run: (job) =>
        runTask(job.task, {
          auth: (id) => app.auth(id) as Promise<GitHub>,
          cacheDir: config.cacheDir,
          isOurs,
          enqueue: (j) => q.add(j),
          ...(opts.logFetch ? { logFetch: opts.logFetch } : {}),
          ...(opts.resilience ? { resilience: opts.resilience } : {}),
          artifacts: service.artifactsFor,
          historyCache,
          onOutcome: service.recordOutcome.bind(service),
          log: (fields, msg) => app.log.info(fields, msg),
        }),
      onError: (e, job, info) => app.log[info.dead ? 'error' : 'warn']({ err: e, job: job.id, attempt: info.attempt }, info.dead ? 'redline: job failed for good (dead-lettered)' : 'redline: job failed, will retry'),
    }));
    if (feed) {
      // The feed's connection ends with the queue's (shutdown, tests).
      const closeQueue = q.close.bind(q);
      q.close = async () => {
        await closeQueue();
        feed.close();
      };
    }
    try {
      options?.addHandler(service.handler);
    } catch {
      app.log.warn('redline: no HTTP server to add /redline/status and /redline/artifacts to');
    }
    const doorDeps = { queue: q, isOurs };
    registerCommands(app, doorDeps);
    registerCheckRunTrigger(app, doorDeps);
    registerFixedMarking(app, doorDeps);
    logUnhandled(app);

    app.on('workflow_job.completed', async (context) => {
      const payload = readPayload(context, WorkflowJobCompleted);
      if (!payload) return;
      const { workflow_job: job, repository, sender } = payload;
      // Only failures; a cancelled or skipped job has nothing to pin. Bots' runs (dependabot) are theirs to fix.
      if (job.conclusion !== 'failure' || sender?.type === 'Bot') return;
      const queued = await q.add(
        diagnoseJob(context.id, {
          kind: 'diagnose',
          installationId: payload.installation.id,
          repo: repository.full_name,
          job: {
            ref: { owner: repository.owner.login, repo: repository.name },
            repoUrl: repository.html_url,
            jobId: job.id,
            jobName: `${job.workflow_name ?? ''} / ${job.name}`,
            headSha: job.head_sha,
            ...(job.html_url ? { jobUrl: job.html_url } : {}),
            headBranch: job.head_branch,
            ...(repository.default_branch ? { defaultBranch: repository.default_branch } : {}),
            ...(job.run_id ? { run: { id: job.run_id, ...(job.run_attempt ? { attempt: job.run_attempt } : {}), job: job.name } } : {}),
          },
        }),
      );
      if (!queued) context.log.info({ delivery: context.id }, 'redline: duplicate delivery ignored');
    });
  };
  // A getter, not a value: the queue exists once Probot has loaded the app (tests and shutdown read it).
  return Object.defineProperty(fn, 'queue', {
    get(): JobQueue<Task> {
      if (!queue) throw new Error('the app has not been loaded by Probot yet: no queue');
      return queue;
    },
  }) as ApplicationFunction & { readonly queue: JobQueue<Task> };
}

/** Our comments are the ones by this App's bot account (`<slug>[bot]`), looked up once; any bot if that fails. */
export function lazyIsOurs(app: Pick<Probot, 'auth'>): () => Promise<IsOurs> {
  let cached: Promise<IsOurs> | undefined;
  return () =>
    (cached ??= app
      .auth()
      .then((gh) => gh.request('GET /app'))
      .then(({ data }) => {
        const login = `${(data as { slug?: string } | null)?.slug}[bot]`;
        return ((u) => u?.type === 'Bot' && u.login === login) as IsOurs;
      })
      .catch(() => anyBot));
}

export default createRedlineApp();
