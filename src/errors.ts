/**
 * Named errors that carry data and say how to fix the problem. Only doors catch them; a door turns a
 * UsageError into exit code 2 and anything else into exit code 1, printing `message` as one line.
 */
export class RedlineError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The caller asked for something impossible (bad flag, missing file): exit code 2. */
export class UsageError extends RedlineError {}

/** The log could not be read at all (not the same as a log we cannot make sense of). */
export class LogReadError extends RedlineError {
  constructor(
    readonly source: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A git command over the workspace failed (bad --base, not a git repo). */
export class GitError extends RedlineError {}
