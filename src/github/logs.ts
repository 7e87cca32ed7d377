import type { Readable } from 'node:stream';
import { type GitHub, type RepoRef, isConnectionDropped, openDownload, statusOf } from './client.js';
import { DownloadError, LogGoneError, LogNotReadyError } from './errors.js';
import { LOG_FETCH_ATTEMPTS, LOG_LINK_ATTEMPTS, LOG_RETRY_BASE_MS } from './limits.js';

export interface LogFetchOptions {
  attempts?: number;
  baseDelayMs?: number;
  /** Fresh download links asked for, one after the other, when the storage host refuses or drops one (default LOG_LINK_ATTEMPTS). */
  linkAttempts?: number;
  /** Injected so tests do not wait for real. */
  sleep?: (ms: number) => Promise<void>;
}

const realSleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Opens the plain-text log of one Actions job as a stream for `diagnose`. A queued or running job's log
 * answers 404 (the same as a wrong id), so the job's status is read first and a 404 or a transient 5xx
 * ("Failed to generate URL") is retried with a doubling wait; 410 means the log is gone for good.
 */
export async function openJobLog(gh: GitHub, ref: RepoRef, jobId: number, opts: LogFetchOptions = {}): Promise<Readable> {
  const attempts = opts.attempts ?? LOG_FETCH_ATTEMPTS;
  const sleep = opts.sleep ?? realSleep;
  let delay = opts.baseDelayMs ?? LOG_RETRY_BASE_MS;
  let last: unknown;
  for (let i = 1; i <= attempts; i++) {
    try {
      // Completed first: asking for the log of a running job only ever gives 404.
      const job = await gh.request('GET /repos/{owner}/{repo}/actions/jobs/{job_id}', { ...ref, job_id: jobId });
      if ((job.data as { status?: string }).status === 'completed') return await openFreshLink(gh, ref, jobId, opts.linkAttempts ?? LOG_LINK_ATTEMPTS);
      last = new Error(`job ${jobId} is ${(job.data as { status?: string }).status}`);
    } catch (e) {
      const status = e instanceof DownloadError ? e.status : statusOf(e);
      if (status === 410) throw new LogGoneError(jobId, { cause: e });
      // Links that kept failing: the next attempt, after the wait, starts over with a new one.
      const retry = status === 404 || (status !== undefined && status >= 500) || linkFailed(e);
      if (!retry) throw e;
      last = e;
    }
    if (i < attempts) {
      await sleep(delay);
      delay *= 2;
    }
  }
  throw new LogNotReadyError(jobId, attempts, { cause: last });
}

/**
 * The log of a job already known to be completed (a jobs list said so): no status read first, the same
 * redirect rules (a fresh link when storage refuses one), 410 as LogGoneError. One API request when it works.
 */
export async function openCompletedJobLog(gh: GitHub, ref: RepoRef, jobId: number): Promise<Readable> {
  try {
    return await openFreshLink(gh, ref, jobId, LOG_LINK_ATTEMPTS);
  } catch (e) {
    const status = e instanceof DownloadError ? e.status : statusOf(e);
    if (status === 410) throw new LogGoneError(jobId, { cause: e });
    throw e;
  }
}

/**
 * The log through a new download link each time the last one failed: the link lives about a minute
 * and sits on another host (blob storage), which answers an expired one with 403 and can drop the
 * connection. A fresh link works at once, so there is no wait between these; `linkAttempts` bounds them.
 */
async function openFreshLink(gh: GitHub, ref: RepoRef, jobId: number, linkAttempts: number): Promise<Readable> {
  for (let i = 1; ; i++) {
    try {
      return await openDownload(gh, 'GET /repos/{owner}/{repo}/actions/jobs/{job_id}/logs', { ...ref, job_id: jobId }, `the log of job ${jobId}`);
    } catch (e) {
      if (i >= linkAttempts || !linkFailed(e)) throw e;
    }
  }
}

/** The download link was refused (expired: storage answers 403) or its connection dropped: another link may work. */
function linkFailed(e: unknown): boolean {
  return (e instanceof DownloadError && e.status === 403) || isConnectionDropped(e);
}
