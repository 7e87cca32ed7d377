/**
 * The `check_run.completed` trigger (issue 5): another CI's failed or timed-out check run is diagnosed
 * from its output and annotations (src/github/check-run-log.ts) through the same task and queue as a
 * failed Actions job. GitHub Actions' own check runs are skipped (they come as workflow_job, with the
 * real log), and so is Redline's own check run. The sender is not checked: another CI's check runs are
 * always sent by its App's bot account.
 */
import type { Probot } from 'probot';
import { checkRunAsJob, isOtherCiFailure, type CheckRunLike } from '../github/check-run-log.js';
import { diagnoseJob } from '../tasks/task.js';
import type { DoorDeps } from './command.js';
import { CheckRunCompleted, readPayload } from './payloads.js';

/** Registers the `check_run.completed` handler. */
export function registerCheckRunTrigger(app: Probot, deps: DoorDeps): void {
  app.on('check_run.completed', async (context) => {
    const payload = readPayload(context, CheckRunCompleted);
    if (!payload) return;
    const { check_run: run, repository } = payload;
    // Name and app first (no API call); then whether the App is this one (GET /app, looked up once).
    if (!isOtherCiFailure(run as CheckRunLike) || !isOtherCiFailure(run as CheckRunLike, await deps.isOurs())) return;
    const ref = { owner: repository.owner.login, repo: repository.name };
    const job = checkRunAsJob(ref, repository.html_url, run as CheckRunLike);
    const queued = await deps.queue.add(diagnoseJob(context.id, { kind: 'diagnose', installationId: payload.installation.id, repo: repository.full_name, job }));
    if (!queued) context.log.info({ delivery: context.id }, 'redline: duplicate delivery ignored');
  });
}
