/**
 * Which job a log is of, as the Actions runner prints it in "Set up job" (`Complete job name: test (3.12)`,
 * `Job defined at: owner/repo/.github/workflows/ci.yml@refs/pull/1/merge`), or as the door knows it (the
 * App's "<workflow> / <job>"). Two logs are diffed only when nothing they name disagrees.
 */
export interface JobIdentity {
  job?: string;
  /** The workflow file, without the ref it ran at (a PR's merge ref and `main` are the same workflow). */
  workflow?: string;
  /** The door's own name for the job, "<workflow> / <job>". */
  named?: string;
}

const COMPLETE_JOB_NAME = /^Complete job name: (.+)$/;
const JOB_DEFINED_AT = /^Job defined at: ([^@\s]+)(?:@\S*)?$/;

/** The identity of the job whose log starts with `head` (cleaned lines), with the door's name when it has one. */
export function jobIdentity(head: readonly string[], named?: string): JobIdentity {
  const id: JobIdentity = {};
  for (const t of head) {
    const j = COMPLETE_JOB_NAME.exec(t);
    if (j) id.job ??= j[1]!.trim();
    const w = JOB_DEFINED_AT.exec(t);
    if (w) id.workflow ??= w[1]!;
  }
  if (named) id.named = named;
  return id;
}

/** False only when both sides name the job (or its workflow file) and the names differ. */
export function sameJob(a: JobIdentity, b: JobIdentity): boolean {
  if (a.job && b.job && a.job !== b.job) return false;
  if (a.workflow && b.workflow && a.workflow.toLowerCase() !== b.workflow.toLowerCase()) return false;
  if (a.named && b.named && a.named !== b.named) return false;
  return true;
}
