/**
 * The one result format of Redline. `--format json` prints a `Diagnosis` (see report/json.ts), every
 * door builds a `DiagnoseRequest`, and every stage passes these shapes along.
 */

export type Category = 'compile' | 'lint' | 'test' | 'dependency' | 'infra' | 'unknown';

/** One cleaned line of the input log; `n` is the 1-based line number in the file as given. */
export interface LogLine {
  n: number;
  text: string;
  /** Index of the step (see FailingStep) the line belongs to, when the log has steps. */
  step?: number;
}

export type SignalKind = 'diagnostic' | 'frame' | 'identifier' | 'test';

/** One piece of evidence read from the log. */
export interface Signal {
  kind: SignalKind;
  /** A path as the log names it (absolute CI path, relative, module path...): mapped to the repo later. */
  path?: string;
  line?: number;
  column?: number;
  endLine?: number;
  /** A function, test or identifier name the signal is about. */
  symbol?: string;
  message: string;
  /** Which matcher produced it: 'tsc', 'eslint', 'jest', 'pytest', 'v8-frame', ... */
  tool?: string;
  /** What this signal says about the kind of failure, when it says something. */
  category?: Category;
  severity?: 'error' | 'warning';
  /** Relative strength, 0..1: a compiler error with file:line is ~1, a stack frame less, a bare name least. */
  weight: number;
  /** The log line (LogLine.n) it was read from. */
  logLine: number;
  /** Further log lines that belong to this signal (a multi-line diagnostic, an assertion diff). */
  related?: number[];
  /**
   * The tool restating a failure it reported above (Gradle's `Execution failed for task ':test'. > There
   * were failing tests`, `> Task :test FAILED`): it says what kind of failure, and is not quoted as evidence.
   */
  restatement?: boolean;
  /**
   * The last log line of the block this signal heads, when the tool's own output says where it ends (rustc's
   * error stops before its `help:` suggestion, Ant's `BUILD FAILED` before `Total time`): the evidence stage
   * quotes no further, where growing the block by its shape alone would run on.
   */
  blockEnd?: number;
}

/** `model`: pinned by the LLM mode's investigation and verified against the checkout (the cited code is on the line). */
export type Cause = 'diff' | 'diagnostic' | 'frame' | 'test' | 'identifier' | 'definition' | 'model';

/** One candidate pin, modelled on reviewdog's diagnostic format. */
export interface Finding {
  /** Relative to the repo root, with `/` (or as the log names it when there is no repo). */
  file: string;
  /** 1-based. */
  line: number;
  endLine?: number;
  column?: number;
  message: string;
  /** 0..1, from checks (file exists, line in range, identifier at the line, line in the diff). */
  confidence: number;
  cause: Cause;
  symbol?: string;
  /** Why: the log lines and checks that led here. */
  evidence: FindingEvidence[];
}

export interface FindingEvidence {
  /** A log line number, when the evidence is a log line. */
  line?: number;
  text: string;
}

export interface FailingStep {
  name: string;
  /** 1-based input-log lines of the step's first and last line. */
  startLine: number;
  endLine: number;
  /** The CI whose log format the step came from (`github-actions`, `gitlab`, `travis`, `jenkins`, …). */
  format?: string;
}

export interface EvidenceLine {
  line: number;
  text: string;
  /** Index into `Diagnosis.evidenceBlocks` of the block the line belongs to. */
  block?: number;
}

/** One block of the evidence (src/evidence/): a header with its continuation, a trace, an assertion, a summary. */
export interface EvidenceBlock {
  /** First and last input-log line of the block (1-based, inclusive); its quoted lines are in `evidence`. */
  start: number;
  end: number;
  /** The line that says what the block is about. */
  header: number;
  kind: 'diagnostic' | 'assertion' | 'trace' | 'summary' | 'error' | 'infra';
  /** Who proposed it: a toolchain matcher, the generic finder, or the diff against a passing log. */
  source: 'matcher' | 'generic' | 'diff';
}

export type Status = 'located' | 'no-location';

export interface DiagnosisStats {
  bytes: number;
  lines: number;
  signals: number;
  candidates: number;
  filesInRepo?: number;
  changedFiles?: number;
  ms: number;
  truncated?: boolean;
  /**
   * A huge log's bounded middle: error-looking lines seen between the head and the tail windows, how
   * many were kept (with their context) and how many dropped by the bounds (src/log/middle-hits.ts).
   */
  middle?: { hits: number; keptHits: number; droppedHits: number; keptLines: number; unkeyedHits?: number; hitsEstimated?: true };
}

/**
 * Whether this failure is the PR's doing (issue 15): `new` (the last green run of the job did not fail
 * so), `pre-existing` (the base branch fails the same way), `flaky` (the same SHA or the base passed and
 * failed the same job), `unknown` (nothing to compare with).
 */
export type HistoryStatus = 'new' | 'pre-existing' | 'flaky' | 'unknown';

/** A run of the same job that the history compared with. */
export interface RunRef {
  runId: number;
  sha: string;
  url?: string;
  /** The run's number in its workflow (`#N` on GitHub). */
  runNumber?: number;
  attempt?: number;
}

/** What comparing with other runs of the same job said (`history` in the JSON contract, version 2). */
export interface DiagnosisHistory {
  status: HistoryStatus;
  /** A passing log of the same job was diffed against this one. */
  passingLog: boolean;
  /** Lines of the failing step that the passing log never printed (masked templates). */
  newLines?: number;
  /** Lines of the failing step the passing log printed too (not causes). */
  seenLines?: number;
  /** How the two logs were aligned: by the failing step's name, or on the whole log. */
  alignedBy?: 'step' | 'log' | 'none';
  lastGreen?: RunRef;
  /** pre-existing: the base branch's run that fails the same way; flaky: the run that disagrees. */
  since?: RunRef & { branch?: string };
  /** flaky: the runs of the same job whose results disagree. */
  disagreeing?: RunRef[];
  /** One line for people: why the history is unknown or partial (no green run, logs expired, budget low). */
  note?: string;
  /**
   * The commits blamed instead of (or, for a push, for want of) the PR's diff: the range since the last
   * green run of the job (GitHub's compare), used when the PR's own diff does not reach the failure.
   */
  blamedRange?: BlamedRange;
}

/** A range of commits whose changes were the diff prior (`compare/{base}...{head}`). */
export interface BlamedRange {
  /** The last green run's SHA. */
  base: string;
  /** The failing SHA. */
  head: string;
  commits: number;
  files: number;
  url?: string;
  /** `push`: no PR to take a diff from; `silent-diff`: the PR's diff does not reach the failing code. */
  why: 'push' | 'silent-diff';
  /** What GitHub's compare left out (more than 300 files, patches too large to show), in words. */
  truncated?: string;
}

/** The JSON contract's version: 2 added `evidenceBlocks` and `evidence[].block`, and up to 40 evidence lines. */
export const DIAGNOSIS_VERSION = 2;

export interface Diagnosis {
  version: typeof DIAGNOSIS_VERSION;
  status: Status;
  category: Category;
  findings: Finding[];
  evidence: EvidenceLine[];
  /** The blocks the evidence lines come from, in log order (at most 6). */
  evidenceBlocks: EvidenceBlock[];
  failingStep: FailingStep | null;
  /** One sentence for people: what failed and why Redline pins (or does not pin) where it does. */
  summary: string;
  stats: DiagnosisStats;
  /** Present when the diagnosis was compared with other runs of the job (a passing log, the App's history). */
  history?: DiagnosisHistory;
}
