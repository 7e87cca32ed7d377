import { type GitHub, type RepoRef } from './client.js';
import { checkRunAsJob, isOtherCiFailure, type CheckRunLike } from './check-run-log.js';
import type { IsOurs } from './comments.js';
import type { FailedJob } from './handle-failed-job.js';

/** Workflow runs of one commit read at most (one page): re-runs and matrix workflows stay well below. */
const MAX_RUNS = 100;
/** Failures re-diagnosed at most by one `/redline retry`: each is a full diagnosis. */
export const MAX_RETRY_FAILURES = 20;

interface RunLike {
  id: number;
  conclusion?: string | null;
}

interface JobLike {
  id: number;
  name: string;
  workflow_name?: string | null;
  head_sha: string;
  conclusion?: string | null;
  html_url?: string | null;
}

/**
 * The latest failures on a commit, as jobs for handleFailedJob: the failed jobs of its workflow runs
 * (latest attempt of each run), then other CIs' failed check runs (GitHub Actions' own check runs are
 * those jobs; Redline's own check run is never one). At most MAX_RETRY_FAILURES.
 */
export async function failedChecksOf(gh: GitHub, ref: RepoRef, repoUrl: string, sha: string, isOurs?: IsOurs): Promise<FailedJob[]> {
  const out: FailedJob[] = [];
  const { data } = await gh.request('GET /repos/{owner}/{repo}/actions/runs', { ...ref, head_sha: sha, per_page: MAX_RUNS });
  const runs = ((data as { workflow_runs?: RunLike[] }).workflow_runs ?? []).filter((r) => r.conclusion === 'failure');
  for (const run of runs) {
    if (out.length >= MAX_RETRY_FAILURES) break;
    const { data: jobs } = await gh.request('GET /repos/{owner}/{repo}/actions/runs/{run_id}/jobs', { ...ref, run_id: run.id, filter: 'latest', per_page: 100 });
    for (const job of (jobs as { jobs?: JobLike[] }).jobs ?? []) {
      if (job.conclusion !== 'failure' || job.head_sha !== sha) continue;
      out.push({
        ref,
        repoUrl,
        jobId: job.id,
        jobName: `${job.workflow_name ?? ''} / ${job.name}`,
        headSha: sha,
        ...(job.html_url ? { jobUrl: job.html_url } : {}),
      });
    }
  }
  const { data: checks } = await gh.request('GET /repos/{owner}/{repo}/commits/{ref}/check-runs', { ...ref, ref: sha, status: 'completed', filter: 'latest', per_page: 100 });
  for (const run of (checks as { check_runs?: CheckRunLike[] }).check_runs ?? []) {
    if (isOtherCiFailure(run, isOurs)) out.push(checkRunAsJob(ref, repoUrl, run));
  }
  return out.slice(0, MAX_RETRY_FAILURES);
}
