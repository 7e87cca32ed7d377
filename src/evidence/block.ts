/**
 * A block of evidence (DESIGN.md §3a "Blocks, not lines"): the lines a person would paste into a bug
 * report for one failure — a header with its continuation, a stack trace, an assertion diff, a
 * failure summary. Lines are LogLine.n numbers, `start`..`end` inclusive.
 */
export type BlockKind = 'diagnostic' | 'assertion' | 'trace' | 'summary' | 'error' | 'infra';

/** Who proposed the block: a toolchain matcher, the generic finder, or the diff against a passing log. */
export type BlockSource = 'matcher' | 'generic' | 'diff';

export interface Block {
  start: number;
  end: number;
  /** The line that says what the block is about (the error message, the failing test's title). */
  header: number;
  kind: BlockKind;
  /** Higher is better; comparable across sources (matcher blocks start higher). */
  score: number;
  /** Why it scored what it did, in words (for the trace). */
  why: string[];
  source: BlockSource;
  /** The lines to quote when not every line of start..end is (a traceback's source listing is left out). */
  lines?: number[];
  /** The matcher read where the tool's block ends (Signal.blockEnd): a generic block overlapping it does not run it on. */
  closed?: boolean;
}
