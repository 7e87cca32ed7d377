import type { LogLine } from '../../types.js';

/**
 * The lines a retry wrapper prints about its own attempts, whatever CI runs it: Travis' `travis_retry`
 * (`The command "…" failed. Retrying, 2 of 3.`, `… failed 3 times.`) and the `retry` shell function that
 * rust-lang/rust's CI scripts run under Azure and Actions (`Command failed. Attempt 2/5:`, `The command has
 * failed after 5 attempts.`). They say that the command failed, not why: never evidence, as the runner's
 * own lines are not.
 */
const RETRY_WRAPPER = /^\s*(?:The command ".*" failed(?:\. Retrying, \d+ of \d+| \d+ times)\.|Command failed\. Attempt \d+\/\d+:?|The command has failed after \d+ attempts\.)\s*$/;
/** A line longer than this is output, not a wrapper's one-line notice (the command is quoted in it, so allow some). */
const MAX_NOTICE = 2000;

/** The line numbers of retry wrappers' notices about their own attempts. */
export function retryWrapperLines(lines: readonly LogLine[]): number[] {
  const out: number[] = [];
  // One regex call a line, its surrounding blanks in the pattern, in an index loop: this runs once over
  // every kept line (~33,000 of a huge log) in code not yet optimised, where an array iterator, a trim
  // and two prefix tests cost ~40% more than the one anchored test (which fails at the first letters).
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (l.text.length <= MAX_NOTICE && RETRY_WRAPPER.test(l.text)) out.push(l.n);
  }
  return out;
}
