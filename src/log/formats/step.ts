import type { FailingStep, LogLine } from '../../types.js';
import type { SectionMarker } from '../scan-log.js';

/** The CI systems whose logs Redline splits into steps; `plain` is pasted tool output with no CI frame. */
export type CiFormat =
  | 'github-actions'
  | 'gitlab'
  | 'travis'
  | 'jenkins'
  | 'buildkite'
  | 'circleci'
  | 'azure'
  | 'teamcity'
  | 'drone'
  | 'plain';

/**
 * What a step is for. `setup` is the CI's own preparation (checkout, cache restore, runner info) or the
 * project's install phase; `user` runs the project's commands; `post` runs after the outcome is decided
 * (cleanup, cache upload, after_failure / after_script, artifact upload) and is never the cause.
 */
export type StepKind = 'setup' | 'user' | 'post';

export interface Step extends FailingStep {
  kind: StepKind;
  /** The runner's or CI's own error lines inside the step (`##[error]…`, `ERROR: Job failed…`). */
  errorLines: number[];
  /** Exit code when the step reported one (0 included: a Travis command that passed says so). */
  exitCode?: number;
  /** The format says this step failed even without an exit code (`marked build as failure`, `^^^ +++`). */
  failed?: true;
  /**
   * Which job of the log the step belongs to (0, 1, …), set only when the log holds several jobs one after
   * the other (`gh run view --log` of a whole run): the failing step is then chosen within one job.
   */
  job?: number;
}

/** What every format reads: the cleaned lines, the escape-hidden section markers, the line count. */
export interface FormatInput {
  lines: readonly LogLine[];
  sections: readonly SectionMarker[];
  totalLines: number;
}

/**
 * One CI's log format. `detect` says how sure it is that the log is this CI's (0 = not at all, 1 = its
 * own markers are all over it); `steps` splits the log into the CI's steps, in log order, with the
 * errors and exit codes the CI printed.
 */
export interface CiFormatModule {
  id: CiFormat;
  detect(input: FormatInput): number;
  /** The highest score `detect` returns: detectFormat stops once no later format could beat the best. */
  ceiling: number;
  steps(input: FormatInput): Step[];
  /**
   * Which failed step ended the job. `last` for runners that stop at the first failure (a failed step
   * followed by other failed steps was allowed to fail: continue-on-error); `first` for Travis, which
   * runs every `script` command whatever the one before returned.
   */
  failureOrder: 'first' | 'last';
  /** First line of the runner's post-job cleanup, when the format has one (Actions). */
  cleanupStart?(input: FormatInput): number | undefined;
  /**
   * A prefix the CI writes before every output line (Drone's `[build:L12:3s] `). `steps` reads it (it
   * names the step); a person reads the line without it, so the evidence and the matchers get the lines
   * with it cut (findFailingStep's `lines`).
   */
  linePrefix?: RegExp;
  /**
   * The lines the runner printed about itself, not about the project: its own stack traces (Jenkins'
   * `hudson.*` frames under a failed checkout), its agent's chatter. They are never evidence and never
   * pinned: findFailingStep's `lines` leave them out, so the matchers and the evidence do not read them.
   * Read from the lines as a person reads them (linePrefix cut).
   */
  runnerLines?(lines: readonly LogLine[]): number[];
}

/** True when the step failed: a non-zero exit, or a failure the format marked, or a CI error line. */
export function stepFailed(s: Step): boolean {
  return s.failed === true || (s.exitCode !== undefined ? s.exitCode !== 0 : s.errorLines.length > 0);
}

/**
 * The steps in which a CI prepares itself and fetches the project's sources, before any project command
 * runs, by the names each format gives them: GitLab's `get_sources` (and the runner's own
 * `prepare_executor` / `prepare_script`, which set up its executor and shell), Jenkins' `Declarative: Checkout SCM` (and a
 * freestyle job's SCM checkout, the console before its first build step), `actions/checkout@…`, Azure's
 * `Checkout …` task, CircleCI's `Checkout code`, Travis' `git.checkout` fold, Drone's `clone`, TeamCity's
 * `Updating sources`, Buildkite's checkout hooks.
 */
const SOURCE_FETCH = /^(?:get_sources|prepare_executor|prepare_script|Declarative: Checkout SCM|checkout|Checkout(?: .+)?|actions\/checkout@.*|git\.checkout.*|clone|git|Updating sources.*|Collecting changes.*|.*\bcheckout hook)$/i;

/**
 * True when the step is the runner's own fetch of the sources (a setup step named for it): what fails
 * there (a ref missing from the remote, a host that cannot be resolved, credentials refused) is the CI's
 * setup, not the project's code. A `git` command in the project's own script is a user step, never this.
 */
export function fetchesSources(s: Step): boolean {
  return s.kind === 'setup' && SOURCE_FETCH.test(s.name);
}

/** Counts lines that pass `test`, stopping at `enough` (detectors need a few hits, not all). */
export function countLines(lines: readonly LogLine[], test: (text: string) => boolean, enough = 3): number {
  let hits = 0;
  // An index loop: every detector runs this over the kept lines (~70,000 of a huge log) once, in code
  // not yet optimised, where an array iterator costs more than the test.
  for (let i = 0; i < lines.length; i++) {
    if (test(lines[i]!.text) && ++hits >= enough) break;
  }
  return hits;
}
