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
  middle?: { hits: number; keptHits: number; droppedHits: number; keptLines: number; unkeyedHits?: number };
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
}
