import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { diagnoseWithTrace } from '../diagnose.js';
import { MAX_SOURCE_FILE_BYTES } from '../limits.js';
import { categoryLabel, pinText } from '../report/explain.js';
import { familyOf, fingerprintOf, formatFingerprint } from '../report/fingerprint.js';
import { renderMarkdown } from '../report/markdown.js';
import { place } from '../report/placement.js';
import type { PrDiff } from '../repo/diff.js';
import { redactSecrets } from '../report/redact.js';
import { inlineCode } from '../report/sanitize.js';
import type { Diagnosis } from '../types.js';
import { type GitHub, type RepoRef, checkRef } from './client.js';
import { checkoutAt } from './checkout.js';
import { CHECK_TEXT_MAX, upsertCheckRun } from './check-run.js';
import { LogGoneError, LogNotReadyError } from './errors.js';
import type { IsOurs } from './comments.js';
import { unsafePath } from './extract-tarball.js';
import { openJobLog, type LogFetchOptions } from './logs.js';
import { findPullRequest, pullRequestDiff } from './pull-request.js';
import { publish, type PublishResult } from './publish.js';

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
}

export interface JobDeps {
  gh: GitHub;
  cacheDir: string;
  logFetch?: LogFetchOptions;
  isOurs?: IsOurs;
}

export type JobOutcome = { status: 'no-open-pr' } | { status: 'log-unavailable'; reason: string } | { status: 'published'; diagnosis: Diagnosis; result: PublishResult };

/** Encodes each path segment of a repo file for a URL (spaces, `#`, `?` in file names). */
const encodePath = (file: string): string => file.split('/').map(encodeURIComponent).join('/');

/** Reads a file of the checkout for the comment's excerpt; nothing for unsafe or oversized paths. */
function sourceReader(dir: string): (file: string) => string[] | undefined {
  return (file) => {
    if (unsafePath(file)) return undefined;
    try {
      const p = join(dir, file);
      if (statSync(p).size > MAX_SOURCE_FILE_BYTES) return undefined;
      return readFileSync(p, 'utf8').split('\n');
    } catch {
      return undefined;
    }
  };
}

/** Diagnoses one failed job of a PR and posts the one comment for it (the App's unit of work). */
export async function handleFailedJob(job: FailedJob, deps: JobDeps): Promise<JobOutcome> {
  const { gh } = deps;
  checkRef(job.ref, job.headSha);

  // 1. The open PR this commit belongs to (by SHA for forks); no PR, nothing to comment on.
  const pr = await findPullRequest(gh, job.ref, job.headSha, job.pullRequests);
  if (!pr) return { status: 'no-open-pr' };

  // 2. What diagnose needs, fetched together: the job log (a stream), the code at the head SHA, the PR's hunks.
  const got = await Promise.allSettled([
    openJobLog(gh, job.ref, job.jobId, deps.logFetch),
    checkoutAt(gh, job.ref, job.headSha, { cacheDir: deps.cacheDir }),
    pullRequestDiff(gh, job.ref, pr.number),
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
  const [log, repo, diff] = got.map((r) => (r as PromiseFulfilledResult<unknown>).value) as [Readable, string, PrDiff];

  // 3. The core.
  const { diagnosis: d } = await diagnoseWithTrace({ log, repo, diff });

  // 4. Where the comment goes (validated against the hunks), its fingerprint, its body.
  const placement = place(d, diff);
  const fp = fingerprintOf({ repo: `${job.ref.owner}/${job.ref.repo}`, job: job.jobName }, d);
  const permalink = (file: string, line: number): string => `${job.repoUrl}/blob/${job.headSha}/${encodePath(file)}#L${line}`;
  const common = { permalink, source: sourceReader(repo), ...(job.jobUrl ? { logUrl: job.jobUrl } : {}) };
  const body = (): string => renderMarkdown(d, { ...common, fingerprint: formatFingerprint(fp) });
  const top = d.status === 'located' ? d.findings[0] : undefined;

  // 5. One voice: find → skip / update / create, then the Redline check run.
  const result = await publish(gh, {
    ref: job.ref,
    pr: pr.number,
    headSha: job.headSha,
    fingerprint: fp,
    placement,
    body,
    title: top ? `${categoryLabel(d.category)} at ${pinText(top)}` : `no location — ${categoryLabel(d.category)}`,
    summary: renderMarkdown(d, { ...common, maxChars: CHECK_TEXT_MAX - 200 }),
    message: redactSecrets(top?.message ?? d.summary).text,
    ...(job.jobUrl ? { detailsUrl: job.jobUrl } : {}),
    ...(deps.isOurs ? { isOurs: deps.isOurs } : {}),
  });
  return { status: 'published', diagnosis: d, result };
}
