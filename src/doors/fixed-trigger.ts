/**
 * `workflow_job.completed` with `success`: the job Redline commented on passes later, so its comment
 * is marked fixed (src/github/mark-fixed.ts). Same queue and per-commit key as the failure handler, so
 * a pass and a failure of one commit do not race on the same comment.
 */
import type { Probot } from 'probot';
import { markFixedJob } from '../tasks/task.js';
import type { DoorDeps } from './command.js';
import { readPayload, WorkflowJobCompleted } from './payloads.js';

/** Registers the handler that marks comments fixed when their job passes. */
export function registerFixedMarking(app: Probot, deps: DoorDeps): void {
  app.on('workflow_job.completed', async (context) => {
    const payload = readPayload(context, WorkflowJobCompleted);
    if (!payload) return;
    const { workflow_job: job, repository, sender } = payload;
    if (job.conclusion !== 'success' || sender?.type === 'Bot') return;
    const queued = await deps.queue.add(
      markFixedJob(context.id, {
        kind: 'mark-fixed',
        installationId: payload.installation.id,
        repo: repository.full_name,
        jobId: job.id,
        job: {
          ref: { owner: repository.owner.login, repo: repository.name },
          repoUrl: repository.html_url,
          jobName: `${job.workflow_name ?? ''} / ${job.name}`,
          headSha: job.head_sha,
          ...(repository.default_branch ? { defaultBranch: repository.default_branch } : {}),
        },
      }),
    );
    if (!queued) context.log.info({ delivery: context.id }, 'redline: duplicate delivery ignored');
  });
}
