/**
 * The evidence stage (DESIGN.md §3a): toolchain-agnostic failure blocks from structure, vocabulary,
 * template rarity and position, the matchers' signals widened to their blocks, and the selection of the
 * best blocks within the bound. Signals for locating are read back out of the chosen blocks.
 */
import type { Category, LogLine, Signal } from '../types.js';
import { withoutStepPrefix } from './step-prefix.js';
import { outsideRunPreamble } from './run-preamble.js';
import { withoutRestatedAnnotations } from './restated-annotations.js';
import { withoutWarningsBesideError } from './warnings-beside-error.js';
import { firstLinesOfErrorList } from './diagnostic-list.js';
import { withoutLeadingPassingContext } from './passing-context.js';
import type { Block } from './block.js';
import { findGenericBlocks } from './find-blocks.js';
import { blocksFromSignals } from './matcher-blocks.js';
import { selectBlocks, type Selection } from './select-blocks.js';
import { isConsequence, isProgressLine, isStepMarker } from './vocabulary.js';
import { evidenceFromNewLines } from './new-line-evidence.js';
import { lastAttempt } from './last-attempt.js';
import { lastTracedCommand } from './last-traced-command.js';
import { MAX_EVIDENCE_LINES } from '../limits.js';
import { signalsFromBlocks as readBlockSignals } from './read-locations.js';
import { diffHunkSignals } from './quiet-reports.js';

export type { Block, BlockKind, BlockSource } from './block.js';
export type { Selection } from './select-blocks.js';
export { categoryFromBlocks } from './classify-blocks.js';
export { locationsIn } from './read-locations.js';

/** Locations inside the chosen blocks, as signals: the location forms in their text, and a formatter diff's place. */
export function signalsFromBlocks(blocks: readonly Block[], lines: readonly LogLine[], category: Category): Signal[] {
  const diff = diffHunkSignals(blocks, lines, category);
  const read = readBlockSignals(blocks, lines, category);
  return diff.length ? [...diff, ...read.filter((s) => !diff.some((d) => d.logLine === s.logLine))] : read;
}
export { findGenericBlocks } from './find-blocks.js';
export { blocksFromSignals } from './matcher-blocks.js';
export { selectBlocks, mergeBlocks } from './select-blocks.js';
export { errorScore } from './vocabulary.js';
export { looksBinary } from './looks-binary.js';
export { lineTemplate, lineKey, templateHash, TemplateCounter, TEMPLATE_MAX_CHARS } from './templates.js';

/** Lines quoted before the runner's error when nothing at all was recognised. */
const FALLBACK_BEFORE = 5;

export interface EvidenceInput {
  /** The failing step's lines (or the log's end without steps), in order. */
  lines: readonly LogLine[];
  signals: readonly Signal[];
  /** The category the matchers' signals give ('unknown' when they gave none). */
  category: Category;
  /** Log lines behind the pinned findings, when locating has run: their blocks come first. */
  pinned?: ReadonlySet<number>;
  /** Lines a passing run of the same job did not print (the passing-log diff's hook): favoured. */
  newLines?: ReadonlySet<number>;
  /** Lines the passing run printed too (the passing-log diff): not causes, never quoted. */
  seenLines?: ReadonlySet<number>;
  /** Extra blocks from elsewhere (the passing-log diff: `source: 'diff'`), ranked with the rest. */
  extraBlocks?: readonly Block[];
  /** The runner's own error lines (`##[error]…`, `The command … exited with 1.`): the last resort. */
  runnerErrorLines?: readonly number[];
}

/**
 * The blocks a person would paste into a bug report, and their lines: the matchers' blocks and the
 * generic finder's compete on one score; when neither finds anything, the runner's error lines and the
 * few lines printed just before them.
 */
export function findEvidence(input: EvidenceInput): Selection {
  // With a passing run of the job (issue 15): its new lines, in blocks, when any says something failed.
  if (input.newLines?.size) {
    const fresh = evidenceFromNewLines(input.lines, input.newLines, new Set(input.signals.filter((s) => s.kind !== 'identifier').map((s) => s.logLine)));
    if (fresh.lines.length) return fresh;
  }
  // The part of the step that failed, where the step shows what came before it was survived: a retried
  // command's last attempt, a `sh -xe` script's last traced command. Searched first, then the whole step.
  for (const failedPart of [lastAttempt, lastTracedCommand]) {
    const part = failedPart(input.lines);
    if (!part) continue;
    const chosen = fromBlocks(input, part);
    if (chosen.lines.length) return chosen;
  }
  const chosen = fromBlocks(input, input.lines);
  if (chosen.lines.length) return chosen;
  return fallback(input);
}

/** The matchers' and the generic finder's blocks among these lines, selected. */
function fromBlocks(input: EvidenceInput, stepLines: readonly LogLine[]): Selection {
  const lines = withoutStepPrefix(stepLines);
  const proposed: Block[] = [
    ...blocksFromSignals({ signals: input.signals, lines, category: input.category, ...(input.pinned ? { pinned: input.pinned } : {}) }),
    ...findGenericBlocks({ lines, ...(input.newLines ? { newLines: input.newLines } : {}) }),
    ...(input.extraBlocks ?? []).filter((b) => b.start >= (lines[0]?.n ?? 0)),
  ];
  const stated = withoutWarningsBesideError(withoutRestatedAnnotations(outsideRunPreamble(proposed, lines), lines), lines);
  const chosen = firstLinesOfErrorList(selectBlocks(withoutLeadingPassingContext(stated, lines), lines, input.seenLines), lines);
  if (lines === stepLines) return chosen;
  // The quote is the log's own text, prefix and all: the prefix was cut only to read the structure.
  const raw = new Map(stepLines.map((l) => [l.n, l.text] as const));
  return { ...chosen, lines: chosen.lines.map((l) => ({ ...l, text: raw.get(l.line) ?? l.text })) };
}

/** The runner's exit line: in every failed log, so quoted only when nothing at all was printed before it. */
const EXIT_LINE = /^##\[error\]Process completed with exit code|^Error: Process completed with exit code/;

function fallback(input: EvidenceInput): Selection {
  const allErrs = input.runnerErrorLines ?? [];
  const end = allErrs[allErrs.length - 1] ?? input.lines[input.lines.length - 1]?.n ?? 0;
  const printed = input.lines.filter((l) => l.n < end && l.text.trim() !== '' && !isConsequence(l.text) && !isStepMarker(l.text) && (!input.newLines || input.newLines.has(l.n)));
  // The step's own output, not the runner's preamble; a log that holds nothing else (cut after the
  // `Run …` line) is quoted by what ran.
  const preamble = runnerPreamble(input.lines);
  const output = printed.filter((l) => !preamble.has(l.n));
  const before = (output.length || allErrs.length ? output : printed).slice(-FALLBACK_BEFORE);
  // A package manager's progress at the top (`go: finding module for package x` over Go's error) is what it was
  // doing, not what went wrong: the quote starts below it, as a block's does (select-blocks.ts).
  while (before.length > 1 && isProgressLine(before[0]!.text)) before.shift();
  const text0 = new Map(input.lines.map((l) => [l.n, l.text] as const));
  const errs = before.length ? allErrs.filter((n) => !EXIT_LINE.test(text0.get(n) ?? '')) : allErrs;
  // Within the evidence bound whatever the log says (a step that printed 80,000 `##[error]` lines): the
  // last of them, nearest the exit, as a reader scrolls up from it.
  const nums = [...new Set([...before.map((l) => l.n), ...errs.slice(-MAX_EVIDENCE_LINES)])].sort((a, b) => a - b).slice(-MAX_EVIDENCE_LINES);
  if (!nums.length) return { blocks: [], lines: [] };
  const text = new Map(input.lines.map((l) => [l.n, l.text] as const));
  const block: Block = { start: nums[0]!, end: nums[nums.length - 1]!, header: nums[nums.length - 1]!, kind: 'error', score: 0, why: ['nothing recognised: the runner\'s error and the lines before it'], source: 'generic' };
  return { blocks: [block], lines: nums.map((n) => ({ line: n, text: text.get(n) ?? '', block: 0 })) };
}
/**
 * The runner's step preambles (`##[group]Run luac -p …`, the script it echoes, `shell: bash -e {0}`, the
 * `env:` it sets, up to `##[endgroup]`): what ran, never why it failed. One pass over the lines.
 */
function runnerPreamble(lines: readonly LogLine[]): Set<number> {
  const out = new Set<number>();
  let open = -1;
  for (let i = 0; i < lines.length; i++) {
    const t = lines[i]!.text;
    if (/^##\[group\]|^::group::/.test(t)) open = i;
    else if (/^##\[endgroup\]|^::endgroup::/.test(t)) {
      // Only a short group that closes is a preamble; the endgroup line itself always is the runner's.
      if (open >= 0 && i - open <= MAX_PREAMBLE_LINES) for (let k = open; k < i; k++) out.add(lines[k]!.n);
      out.add(lines[i]!.n);
      open = -1;
    }
  }
  if (open >= 0 && lines.length - open <= MAX_PREAMBLE_LINES) for (let k = open; k < lines.length; k++) out.add(lines[k]!.n);
  return out;
}
/** A group longer than this is a tool's own output folded by the runner, not a step's preamble. */
const MAX_PREAMBLE_LINES = 40;
export { diffAgainstPassing, PassingLogMismatchError, type PassingDiff, type FailingSide, type PassingSide } from './passing-diff.js';
export { jobIdentity, sameJob, type JobIdentity } from './job-identity.js';
