/**
 * `workflow_job.completed` with `success`: the job Redline commented on passes later, so its comment
 * is marked fixed (src/github/mark-fixed.ts). Same queue and per-commit key as the failure handler, so
 * a pass and a failure of one commit do not race on the same comment.
 */
import type { Probot } from 'probot';
import type { GitHub } from '../github/client.js';
import type { IsOurs } from '../github/comments.js';
import { markFixed } from '../github/mark-fixed.js';
import { resilient } from '../github/resilience.js';
import type { JobQueue } from '../queue/queue.js';

export interface FixedDeps {
  queue: JobQueue;
  isOurs: () => Promise<IsOurs>;
}

/** Registers the handler that marks comments fixed when their job passes. */
export function registerFixedMarking(app: Probot, deps: FixedDeps): void {
  app.on('workflow_job.completed', async (context) => {
    const { workflow_job: job, repository, sender } = context.payload;
    if (job.conclusion !== 'success' || sender?.type === 'Bot') return;
    const queued = deps.queue.add({
      id: `${context.id}:fixed`,
      key: `${repository.full_name}@${job.head_sha}`,
      run: async () => {
        const isOurs = await deps.isOurs();
        const out = await markFixed(
          resilient(context.octokit as GitHub, { isOurs }),
          {
            ref: { owner: repository.owner.login, repo: repository.name },
            repoUrl: repository.html_url,
            jobName: `${job.workflow_name ?? ''} / ${job.name}`,
            headSha: job.head_sha,
            ...(repository.default_branch ? { defaultBranch: repository.default_branch } : {}),
          },
          { isOurs },
        );
        if (out.status === 'marked') context.log.info({ job: job.id, marked: out.comments.length, left: out.left }, 'redline: marked fixed');
      },
    });
    if (!queued) context.log.info({ delivery: context.id }, 'redline: duplicate delivery ignored');
  });
}
