/**
 * The GitHub App door (Probot). Thin by design (DESIGN.md §1): it translates a webhook into a queued
 * job and answers GitHub at once; the work is src/github/handle-failed-job.ts.
 */
import type { ApplicationFunction, ApplicationFunctionOptions, Probot } from 'probot';
import { anyBot, type IsOurs } from '../github/comments.js';
import { handleFailedJob, type JobDeps } from '../github/handle-failed-job.js';
import { InProcessQueue } from '../queue/in-process.js';
import type { JobQueue } from '../queue/queue.js';
import { appConfigFromEnv, type AppConfig } from './app-config.js';
import { RedlineService, serviceOptionsFromEnv, type ServiceOptions } from '../service/service.js';
import { registerCheckRunTrigger } from './check-run-trigger.js';
import { registerCommands } from './command.js';
import { registerFixedMarking } from './fixed-trigger.js';

export interface AppOptions extends Partial<AppConfig>, ServiceOptions {
  /** The queue jobs go to (default: in-process, with the config's concurrency). */
  queue?: JobQueue;
  /** Passed to the job handler (tests shorten the log retry waits). */
  logFetch?: JobDeps['logFetch'];
}

/** Builds the Probot app function; `export default` below uses the environment's settings. */
export function createRedlineApp(opts: AppOptions = {}): ApplicationFunction & { queue: JobQueue } {
  const config = { ...appConfigFromEnv(), ...opts };
  let queue: JobQueue | undefined = opts.queue;
  const fn = (app: Probot, options?: ApplicationFunctionOptions): void => {
    queue ??= new InProcessQueue({ concurrency: config.concurrency, onError: (e) => app.log.error({ err: e }, 'redline: diagnosis failed') });
    const q = queue;
    const isOurs = lazyIsOurs(app);
    // Status page, feedback and artifacts (src/service), served by the App's own HTTP server.
    const service = new RedlineService({ ...serviceOptionsFromEnv(), ...opts }, { queueDepth: () => q.depth, auth: (id) => app.auth(id), isOurs, webhookSecret: process.env.WEBHOOK_SECRET, warn: (m) => app.log.warn(m) });
    try {
      options?.addHandler(service.handler);
    } catch {
      app.log.warn('redline: no HTTP server to add /redline/status and /redline/artifacts to');
    }
    const doorDeps = { queue: q, cacheDir: config.cacheDir, isOurs, ...(opts.logFetch ? { logFetch: opts.logFetch } : {}), artifacts: service.artifactsFor, onOutcome: service.recordOutcome.bind(service) };
    registerCommands(app, doorDeps);
    registerCheckRunTrigger(app, doorDeps);
    registerFixedMarking(app, doorDeps);

    app.on('workflow_job.completed', async (context) => {
      const { workflow_job: job, repository, sender } = context.payload;
      // Only failures; a cancelled or skipped job has nothing to pin. Bots' runs (dependabot) are theirs to fix.
      if (job.conclusion !== 'failure' || sender?.type === 'Bot') return;
      const ref = { owner: repository.owner.login, repo: repository.name };
      const queued = q.add({
        id: context.id,
        // One job at a time per commit (so per PR): the comments of one PR must not race.
        key: `${repository.full_name}@${job.head_sha}`,
        run: async () => {
          const startedMs = performance.now();
          const out = await handleFailedJob(
            {
              ref,
              repoUrl: repository.html_url,
              jobId: job.id,
              jobName: `${job.workflow_name ?? ''} / ${job.name}`,
              headSha: job.head_sha,
              ...(job.html_url ? { jobUrl: job.html_url } : {}),
              headBranch: job.head_branch, ...(repository.default_branch ? { defaultBranch: repository.default_branch } : {}),
            },
            { gh: context.octokit, cacheDir: config.cacheDir, isOurs: await isOurs(), artifacts: service.artifactsFor, ...(opts.logFetch ? { logFetch: opts.logFetch } : {}) },
          );
          service.recordOutcome(out, { repo: repository.full_name, installationId: context.payload.installation?.id, startedMs });
          context.log.info({ job: job.id, status: out.status, ...(out.status === 'published' ? { action: out.result.action, tier: out.result.placement.tier } : {}) }, 'redline: job done');
        },
      });
      if (!queued) context.log.info({ delivery: context.id }, 'redline: duplicate delivery ignored');
    });
  };
  return Object.assign(fn, {
    get queue(): JobQueue {
      return queue ?? (queue = new InProcessQueue({ concurrency: config.concurrency }));
    },
  });
}

/** Our comments are the ones by this App's bot account (`<slug>[bot]`), looked up once; any bot if that fails. */
function lazyIsOurs(app: Probot): () => Promise<IsOurs> {
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
