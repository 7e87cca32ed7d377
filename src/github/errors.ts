import { RedlineError } from '../errors.js';

/** GitHub no longer has the job's log (retention ran out, or the link expired): nothing to diagnose. */
export class LogGoneError extends RedlineError {
  constructor(
    readonly jobId: number,
    options?: { cause?: unknown },
  ) {
    super(`the log of job ${jobId} is gone (HTTP 410: expired or deleted by retention); re-run the job to get a fresh log`, options);
  }
}

/** The job's log stayed unavailable (404 or 5xx) through every retry: the job may still be running. */
export class LogNotReadyError extends RedlineError {
  constructor(
    readonly jobId: number,
    readonly attempts: number,
    options?: { cause?: unknown },
  ) {
    super(`the log of job ${jobId} was not available after ${attempts} attempts; the job may still be running or the id is wrong — redeliver the webhook once it has completed`, options);
  }
}

/** A download (log or tarball) answered with something other than the bytes we asked for. */
export class DownloadError extends RedlineError {
  constructor(
    readonly what: string,
    readonly status: number,
    options?: { cause?: unknown },
  ) {
    super(`downloading ${what} failed with HTTP ${status}; GitHub's download links expire after a minute, so a retry fetches a fresh one`, options);
  }
}

/** A download or an archive grew past its byte cap (a huge repository, or a decompression bomb). */
export class TooLargeError extends RedlineError {
  constructor(
    readonly what: string,
    readonly limit: number,
  ) {
    super(`${what} is larger than ${limit.toLocaleString('en-US')} bytes: stopped there; raise the cap in src/github/limits.ts if this repository is really that big`);
  }
}

/** A name from a payload that cannot be a GitHub owner, repository or commit: refused before it reaches a path. */
export class BadRefError extends RedlineError {
  constructor(readonly value: string, readonly kind: 'owner' | 'repo' | 'sha') {
    super(`${JSON.stringify(value.slice(0, 80))} is not a valid ${kind}; the webhook payload is malformed or hostile`);
  }
}
