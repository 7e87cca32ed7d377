import { permalinkAt, sourceReader } from './checkout-source.js';
import type { Readable } from 'node:stream';
import { diagnoseWithTrace } from '../diagnose.js';
import { categoryLabel, pinText } from '../report/explain.js';
import { familyOf, fingerprintOf, formatFingerprint } from '../report/fingerprint.js';
import { renderMarkdown } from '../report/markdown.js';
import { place } from '../report/placement.js';
import type { PrDiff } from '../repo/diff.js';
import { redactSecrets } from '../safety/redact.js';
import { inlineCode } from '../safety/sanitize.js';
import { COMMENT_MAX_CHARS } from '../report/bounds.js';
import { LEADS_MAX_CHARS, uncertainLeads, withSection } from '../report/uncertain-leads.js';
import type { Diagnosis } from '../types.js';
import { FEEDBACK_PROMPT } from '../service/feedback.js';
import type { JobArtifacts } from '../service/service.js';
import { type GitHub, type RepoRef, checkRef } from './client.js';
import { checkoutAt } from './checkout.js';
import { type CheckRunLike, openCheckRunLog } from './check-run-log.js';
import { CHECK_TEXT_MAX, upsertCheckRun } from './check-run.js';
import { LogGoneError, LogNotReadyError } from './errors.js';
import type { IsOurs } from './comments.js';
import { openJobLog, type LogFetchOptions } from './logs.js';
import { findPullRequest, pullRequestDiff } from './pull-request.js';
import { publish, type PublishResult } from './publish.js';
import { publishCheckOnly } from './comment-style.js';
import { dropIgnored, gateJob } from './repo-config.js';
import { resilient, type ResilienceOptions } from './resilience.js';
import { closeHistoryLogs, findHistory, type HistoryCache, type HistoryFound } from './history.js';
import { withHistoryTitle } from '../report/history-line.js';

/** A failed Actions job, as the door read it from the webhook. */
export interface FailedJob {
  ref: RepoRef;
  /** https://<host>/<owner>/<repo>: the base of permalinks (GHES has its own host). */
  repoUrl: string;
  jobId: number;
  /** "<workflow> / <job>": the fingerprint family, stable across re-runs. */
  jobName: string;
  headSha: string;
  /** The job's page, linked as the full log. */
  jobUrl?: string;
  /** The payload's PRs when it has them (check_run / workflow_run); workflow_job has none. */
  pullRequests?: Parameters<typeof findPullRequest>[3];
  /** Another CI's check run (check-run-log.ts): the log is its output and annotations, not an Actions job log. */
  checkRun?: CheckRunLike;
  /** `/redline explain`: where the pin is uncertain, the comment lists the leads Redline weighed. */
  explain?: boolean;
  /** The branch the job ran on, and the repository's default branch (config and `branches`: repo-config.ts). */
  headBranch?: string | null;
  defaultBranch?: string;
  /** The job's run (workflow_job payload): where its history starts (github/history.ts, issue 15). */
  run?: { id: number; attempt?: number; job: string };
}

export interface JobDeps {
  gh: GitHub;
  cacheDir: string;
  logFetch?: LogFetchOptions;
  isOurs?: IsOurs;
  /** Retries of secondary rate limits and 5xx on writes (resilience.ts); tests shorten the waits. */
  resilience?: ResilienceOptions;
  /** Keeps the raw log's head and stores the artifacts (src/service); returns the comment's link. */
  artifacts?: JobArtifacts;
  /** History lookups cached across jobs of this process (github/history.ts). */
  historyCache?: HistoryCache;
}

export type JobOutcome =
  | { status: 'skipped'; reason: 'disabled' | 'job-not-selected' }
  /** A push without a PR on a branch the config's `branches` selects: said in the check run only. */
  | { status: 'checked'; diagnosis: Diagnosis; result: PublishResult }
  | { status: 'no-open-pr' } | { status: 'log-unavailable'; reason: string } | { status: 'published'; pr: number; diagnosis: Diagnosis; result: PublishResult };

/** Diagnoses one failed job of a PR and posts the one comment for it (the App's unit of work). */
export async function handleFailedJob(job: FailedJob, deps: JobDeps): Promise<JobOutcome> {
  const gh = resilient(deps.gh, { ...(deps.isOurs ? { isOurs: deps.isOurs } : {}), ...deps.resilience });
  checkRef(job.ref, job.headSha);

  // 1. The open PR this commit belongs to (by SHA for forks), and the config of its base branch: no PR
  //    (unless `branches` selects the push), disabled, or a job the config leaves out: nothing to do.
  const pr = await findPullRequest(gh, job.ref, job.headSha, job.pullRequests);
  const gate = await gateJob(gh, job, pr);
  if (!gate.go) return gate.reason === 'no-open-pr' ? { status: 'no-open-pr' } : { status: 'skipped', reason: gate.reason };
  const { config } = gate.settings;

  // 2. What diagnose needs, fetched together: the job log (a stream), the code at the head SHA, the PR's hunks.
  const got = await Promise.allSettled([
    job.checkRun ? openCheckRunLog(gh, job.ref, job.checkRun) : openJobLog(gh, job.ref, job.jobId, deps.logFetch),
    checkoutAt(gh, job.ref, job.headSha, { cacheDir: deps.cacheDir }),
    pr ? pullRequestDiff(gh, job.ref, pr.number) : Promise.resolve(undefined),
  ] as const);
  const failed = got.find((r) => r.status === 'rejected');
  if (failed) {
    // Do not leave the log's download socket open when the checkout or the PR files failed.
    if (got[0].status === 'fulfilled') got[0].value.destroy();
    const why = got[0].status === 'rejected' ? got[0].reason : undefined;
    // A log that is gone or never came is said once, in the check run, not as PR noise.
    if (why instanceof LogGoneError || why instanceof LogNotReadyError) {
      await upsertCheckRun(gh, job.ref, {
        headSha: job.headSha,
        externalId: familyOf({ repo: `${job.ref.owner}/${job.ref.repo}`, job: job.jobName }),
        title: 'log unavailable: nothing to diagnose',
        // The job name comes from the workflow file, which a fork PR can edit: shown as inert code.
        summary: `Redline could not read the log of ${inlineCode(job.jobName.slice(0, 200))}: ${why.message}.`,
        placement: { tier: 'comment' },
        message: why.message,
        ...(job.jobUrl ? { detailsUrl: job.jobUrl } : {}),
      });
      return { status: 'log-unavailable', reason: why.message };
    }
    throw failed.reason;
  }
  const [log, repo, diff] = got.map((r) => (r as PromiseFulfilledResult<unknown>).value) as [Readable, string, PrDiff | undefined];

  // 2b. The job's history (issue 15): the last green run's log, the base branch's latest run, re-runs.
  const history = await jobHistory(gh, job, pr?.baseRef ?? job.defaultBranch, deps.historyCache);

  // 3. The core.
  const kept = deps.artifacts?.(log);
  const { diagnosis: found, trace } = await diagnoseWithTrace({
    log: kept?.log ?? log,
    repo,
    ...(diff ? { diff } : {}),
    ...(history ? { history: history.facts, jobName: job.jobName, ...(history.passingLog ? { passingLog: { ...history.passingLog, jobName: job.jobName } } : {}), ...(history.priorDiff ? { priorDiff: history.priorDiff } : {}) } : {}),
  }).finally(() => history && closeHistoryLogs(history));
  const d = dropIgnored(found, config.ignorePaths);
  const artifactsUrl = await kept?.save(d, trace);

  // 4. Where the comment goes (validated against the hunks), its fingerprint, its body.
  const placement = place(d, diff);
  const fp = fingerprintOf({ repo: `${job.ref.owner}/${job.ref.repo}`, job: job.jobName }, d);
  const permalink = permalinkAt(job.repoUrl, job.headSha);
  const common = { permalink, source: sourceReader(repo), ...(job.jobUrl ? { logUrl: job.jobUrl } : {}), ...(artifactsUrl ? { artifactsUrl } : {}) };
  const leads = job.explain ? uncertainLeads(d, trace, permalink) : '';
  const body = (): string => withSection(renderMarkdown(d, { ...common, fingerprint: formatFingerprint(fp), feedback: FEEDBACK_PROMPT, ...(leads ? { maxChars: COMMENT_MAX_CHARS - LEADS_MAX_CHARS - 4 } : {}) }), leads);
  const top = d.status === 'located' ? d.findings[0] : undefined;

  // 5. One voice: find → skip / update / create, then the Redline check run.
  const out = {
    ref: job.ref,
    headSha: job.headSha,
    fingerprint: fp,
    placement,
    title: withHistoryTitle(top ? `${categoryLabel(d.category)} at ${pinText(top)}` : `no location — ${categoryLabel(d.category)}`, d),
    summary: renderMarkdown(d, { ...common, maxChars: CHECK_TEXT_MAX - 200 }),
    message: redactSecrets(top?.message ?? d.summary).text,
    ...(job.jobUrl ? { detailsUrl: job.jobUrl } : {}),
  };
  // A push without a PR, or `comment: annotations | none` in the config: the check run only.
  if (!pr) return { status: 'checked', diagnosis: d, result: await publishCheckOnly(gh, out, config.comment === 'none' ? 'none' : 'annotations') };
  // `/redline explain` is a person asking for the comment: it is posted whatever the comment style.
  const result = config.comment !== 'review' && !job.explain
    ? await publishCheckOnly(gh, out, config.comment)
    : await publish(gh, { ...out, pr: pr.number, body, ...(deps.isOurs ? { isOurs: deps.isOurs } : {}) });
  return { status: 'published', pr: pr.number, diagnosis: d, result };
}

/** The history of an Actions job (not of another CI's check run): skipped when the door gave no run. */
async function jobHistory(gh: GitHub, job: FailedJob, baseBranch: string | undefined, cache?: HistoryCache): Promise<HistoryFound | undefined> {
  if (!job.run || job.checkRun) return undefined;
  return findHistory(gh, {
    ref: job.ref,
    job: job.run.job,
    runId: job.run.id,
    ...(job.run.attempt !== undefined ? { runAttempt: job.run.attempt } : {}),
    headSha: job.headSha,
    ...(job.headBranch !== undefined ? { headBranch: job.headBranch } : {}),
    ...(baseBranch ? { baseBranch } : {}),
  }, cache ? { cache } : {});
}

