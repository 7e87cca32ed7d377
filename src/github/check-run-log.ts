import { Readable } from 'node:stream';
import { escapeCommand } from '../extract/matchers/workflow-commands.js';
import { CHECK_NAME } from './check-run.js';
import { type GitHub, type RepoRef, listAll } from './client.js';
import type { FailedJob } from './handle-failed-job.js';
import type { IsOurs } from './comments.js';

/**
 * Another CI's failed check run as the core can read it: there is no job log, but the check run's
 * output (title, summary, text) and its annotations, which are often file:line diagnostics already
 * (problem matchers). They become one plain-text "log" whose annotations are written in GitHub's own
 * annotation syntax (`::error file=…,line=…::message`), which the `annotation` matcher reads as strong,
 * located signals. The rest of the pipeline (checkout, PR diff, placement, one voice) is the job's.
 */

/** The fields of a check run we read (webhook payload or REST answer: the same shape). */
export interface CheckRunLike {
  id: number;
  name: string;
  head_sha: string;
  status?: string;
  conclusion?: string | null;
  details_url?: string | null;
  html_url?: string | null;
  output?: { title?: string | null; summary?: string | null; text?: string | null } | null;
  app?: { slug?: string; name?: string } | null;
  pull_requests?: FailedJob['pullRequests'];
}

export interface CheckRunAnnotation {
  path: string;
  start_line: number;
  end_line?: number | null;
  start_column?: number | null;
  end_column?: number | null;
  annotation_level?: string | null;
  title?: string | null;
  message?: string | null;
  raw_details?: string | null;
}

/** Annotations read at most (GitHub stores up to 50 per update, a run can have thousands): 10 pages. */
export const MAX_ANNOTATIONS = 1_000;
/** Lines of one annotation's raw_details kept (a stack trace: the top frames matter). */
const MAX_DETAIL_LINES = 40;
/** Each of title, summary and text is at most GitHub's 65,535 characters; cut further per line. */
const MAX_OUTPUT_LINE = 4_000;

/** The conclusions that are a failure to diagnose (neutral, cancelled, skipped, stale, action_required are not). */
export const FAILED_CONCLUSIONS: ReadonlySet<string> = new Set(['failure', 'timed_out']);

/**
 * Whether a completed check run is another CI's failure Redline should diagnose: not GitHub Actions'
 * own (those come as workflow_job, with a real log), and never Redline's own check run.
 */
export function isOtherCiFailure(run: Pick<CheckRunLike, 'name' | 'conclusion' | 'app'>, isOurs?: IsOurs): boolean {
  if (!run.conclusion || !FAILED_CONCLUSIONS.has(run.conclusion)) return false;
  if (run.app?.slug === 'github-actions') return false;
  if (run.name === CHECK_NAME) return false;
  if (isOurs && run.app?.slug && isOurs({ login: `${run.app.slug}[bot]`, type: 'Bot' })) return false;
  return true;
}

/** The check run's annotations, at most MAX_ANNOTATIONS. */
export function listAnnotations(gh: GitHub, ref: RepoRef, checkRunId: number): Promise<CheckRunAnnotation[]> {
  return listAll<CheckRunAnnotation>(gh, 'GET /repos/{owner}/{repo}/check-runs/{check_run_id}/annotations', { ...ref, check_run_id: checkRunId }).then((a) =>
    a.slice(0, MAX_ANNOTATIONS),
  );
}

const level = (l: string | null | undefined): 'error' | 'warning' | 'notice' => (l === 'warning' ? 'warning' : l === 'notice' ? 'notice' : 'error');

/** One annotation in GitHub's workflow-command syntax, then its details as plain lines. */
export function annotationLines(a: CheckRunAnnotation): string[] {
  const props = [`file=${escapeCommand(a.path, true)}`];
  if (a.start_line > 0) props.push(`line=${a.start_line}`);
  if (a.end_line && a.end_line > a.start_line) props.push(`endLine=${a.end_line}`);
  if (a.start_column && a.start_column > 0) props.push(`col=${a.start_column}`);
  if (a.title) props.push(`title=${escapeCommand(a.title.slice(0, 200), true)}`);
  const message = (a.message ?? '').slice(0, MAX_OUTPUT_LINE);
  const out = [`::${level(a.annotation_level)} ${props.join(',')}::${escapeCommand(message)}`];
  // A multi-line message's further lines and the raw details are context (an assertion diff, frames).
  const more = [...message.split(/\r?\n/).slice(1), ...(a.raw_details ?? '').split(/\r?\n/).slice(0, MAX_DETAIL_LINES)];
  for (const l of more) if (l.trim()) out.push(`    ${l.slice(0, MAX_OUTPUT_LINE)}`);
  return out;
}

/** The text the core reads for a failed check run: its output, then its annotations (failures last, nearest the end). */
export function checkRunLogText(run: CheckRunLike, annotations: readonly CheckRunAnnotation[]): string {
  const lines: string[] = [];
  const app = run.app?.name ?? run.app?.slug ?? 'another CI';
  lines.push(`Check run ${run.name} (${app}) completed: ${run.conclusion ?? 'unknown'}`);
  const o = run.output ?? {};
  for (const part of [o.title, o.summary, o.text]) {
    if (!part) continue;
    for (const l of part.split(/\r?\n/)) lines.push(l.slice(0, MAX_OUTPUT_LINE));
  }
  const order = { notice: 0, warning: 1, error: 2 } as const;
  const sorted = [...annotations].sort((a, b) => order[level(a.annotation_level)] - order[level(b.annotation_level)]);
  for (const a of sorted) lines.push(...annotationLines(a));
  if (run.conclusion === 'timed_out') lines.push('Error: the check run timed out');
  return `${lines.join('\n')}\n`;
}

/**
 * The failed check run as a FailedJob for handleFailedJob: its fingerprint family is "<app> / <check
 * name>" (stable across re-runs), and the fields its log is built from travel with it as data (the job
 * may be queued to disk or to another machine); openCheckRunLog builds the log when it runs.
 */
export function checkRunAsJob(ref: RepoRef, repoUrl: string, run: CheckRunLike): FailedJob {
  const url = run.details_url && /^https:\/\//.test(run.details_url) ? run.details_url : run.html_url ?? undefined;
  const { id, name, head_sha, conclusion, output, app } = run;
  return {
    ref,
    repoUrl,
    jobId: run.id,
    jobName: `${run.app?.name ?? run.app?.slug ?? 'checks'} / ${run.name}`,
    headSha: run.head_sha,
    ...(url ? { jobUrl: url } : {}),
    ...(run.pull_requests?.length ? { pullRequests: run.pull_requests } : {}),
    checkRun: { id, name, head_sha, conclusion: conclusion ?? null, output: output ?? null, app: app ? { ...(app.slug ? { slug: app.slug } : {}), ...(app.name ? { name: app.name } : {}) } : null },
  };
}

/** The check run's "log": its output and annotations as text (the annotations are read when the job runs). */
export async function openCheckRunLog(gh: GitHub, ref: RepoRef, run: CheckRunLike): Promise<Readable> {
  return Readable.from([checkRunLogText(run, await listAnnotations(gh, ref, run.id))]);
}
