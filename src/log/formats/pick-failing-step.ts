import { stepFailed, type CiFormatModule, type Step } from './step.js';

/**
 * The one rule every CI format shares: the failing step is a step that failed (non-zero exit, or marked
 * failed by the CI) and is not a post / cleanup step. A step that merely ran after it (an `echo`, an
 * `after_script`, a cache upload) is never chosen just for being last. When several failed, the format's
 * `failureOrder` says which ended the job.
 */
export function pickFailingStep(steps: readonly Step[], order: CiFormatModule['failureOrder']): Step | null {
  const failed = inOneJob(steps.filter((s) => s.kind !== 'post' && stepFailed(s)));
  if (!failed.length) return null;
  return order === 'first' ? failed[0]! : failed[failed.length - 1]!;
}

/**
 * In a text holding several jobs one after the other (`gh run view --log` of a whole run), `failureOrder`
 * orders the steps of one job, not the jobs: a later job failing is no later in the run (a matrix twin
 * failing alike, a quality gate failing because the first job did, a job cancelled or timed out while the
 * first had already failed). The first job with a step that exited non-zero, or that the format marked failed
 * (a set-up the runner refused), is read; one only stopped from outside (a cancel, a timeout: no exit code) is
 * read only when no job did.
 */
function inOneJob(failed: readonly Step[]): readonly Step[] {
  if (!failed.some((s) => s.job !== undefined)) return failed;
  const job = (failed.find((s) => (s.exitCode !== undefined && s.exitCode !== 0) || s.failed === true) ?? failed[0])!.job;
  return failed.filter((s) => s.job === job);
}
