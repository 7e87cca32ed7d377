import type { LogLine } from '../types.js';
import type { Block } from './block.js';
import { describeBlock } from './describe-block.js';
import { blockEnd, EXCERPT_LINE, headerAbove } from './grow-block.js';
import { lineKey, TemplateCounter } from './templates.js';
import { quietBlocks } from './quiet-reports.js';
import { failedGoalReports } from './failed-goal-reports.js';
import { errorScore, isConsequence, isLocatedDiagnostic, isSummaryHeader } from './vocabulary.js';
import { isPlaceAlone } from './read-locations.js';
import { EXCERPT_BELOW, MAX_EVIDENCE_SEEDS } from '../limits.js';

/** A line that says failure this strongly (errorScore) starts a block. */
const SEED_MIN = 0.5;
/** A template seen more often than this in the step is a repeated line (a passing test's, a progress line): noise after its first. */
const REPEATED = 5;
/** The sketch's width: the step's distinct templates, a few hundred KB however long the step. */
const COUNTER_WIDTH = 1 << 15;

export interface GenericInput {
  /** The failing step's lines (or the log's end when there are no steps), in order. */
  lines: readonly LogLine[];
  /**
   * Lines that a passing run of the same job did not print (the passing-log diff). When given, blocks
   * made of new lines are favoured and blocks the passing run printed too are all but dropped.
   */
  newLines?: ReadonlySet<number>;
}

/**
 * The toolchain-agnostic evidence finder: blocks proposed from structure (a header and its indented
 * continuation, traces, assertion diffs, failure summaries), vocabulary (errorScore), the rarity of line
 * templates (a line whose template repeats across the step is noise), position (the end of the step is
 * where the reason is printed) and repetition (only the first of repeated messages counts).
 */
export function findGenericBlocks(input: GenericInput): Block[] {
  const { lines } = input;
  if (!lines.length) return [];
  const counter = new TemplateCounter(COUNTER_WIDTH, 4);
  const keys = new Uint32Array(lines.length);
  for (let i = 0; i < lines.length; i++) counter.add((keys[i] = lineKey(lines[i]!.text)));

  // The step's end, before the runner's and build tool's echo of the exit code.
  let last = lines.length - 1;
  while (last > 0 && (lines[last]!.text.trim() === '' || isConsequence(lines[last]!.text))) last--;

  type Seed = { i: number; score: number; strength: number; count: number };
  const seeds: Seed[] = [];
  const seen = new Set<number>();
  for (let i = 0; i < lines.length; i++) {
    const t = lines[i]!.text;
    const firstOfItsKind = !seen.has(keys[i]!);
    seen.add(keys[i]!);
    if (isConsequence(t) || isQuotedSource(lines, i) || HANDLED.test(t)) continue;
    const strength = isSummaryHeader(t) ? Math.max(0.6, errorScore(t)) : placeOverExcerpt(lines, i) ? Math.max(PLACE_OVER_EXCERPT, errorScore(t)) : errorScore(t);
    if (strength < SEED_MIN) continue;
    const count = counter.count(keys[i]!);
    if (count > REPEATED && !firstOfItsKind) continue;
    seeds.push({ i, score: strength + rarity(count) + position(i, last), strength, count });
  }
  // Nothing says failure, yet the step failed: a checker's bare reports or a formatter's diff are its reasons.
  if (!seeds.length) return quietBlocks(lines, last);
  // Only a count says failure (cpplint's `Total errors found: 1`, printed above the report it counts when
  // stdout and stderr interleave): the count is no reason; the checker's bare reports are.
  if (seeds.every((s) => ERROR_COUNT_ONLY.test(lines[s.i]!.text))) {
    const quiet = quietBlocks(lines, last);
    if (quiet.length) return quiet;
  }
  // One complaint repeated (a script that failed the same way for each item it visited) and nothing else
  // said to fail: the repetition is not a routine line's, so its first print counts as printed once.
  const sole = seeds.length > 0 && seeds.every((s) => keys[s.i] === keys[seeds[0]!.i]) && seeds[0]!.count > 1;
  const soleKey = sole ? keys[seeds[0]!.i] : undefined;
  const rarityAt = (i: number) => rarity(keys[i] === soleKey ? 1 : counter.count(keys[i]!));
  if (sole) for (const s of seeds) s.score = s.strength + rarityAt(s.i) + position(s.i, last);
  const top = seeds.sort((a, b) => b.score - a.score).slice(0, MAX_EVIDENCE_SEEDS).sort((a, b) => a.i - b.i);

  const blocks: (Block & { endIdx: number })[] = [];
  const headerKeys = new Set<number>();
  let prev: (Block & { endIdx: number }) | undefined;
  for (const s of top) {
    if (prev && s.i <= prev.endIdx) continue;
    const h = headerAbove(lines, s.i);
    const e = blockEnd(lines, h, s.i);
    const shape = describeBlock(lines, h, e, h);
    const why = [...shape.why];
    let score = Math.max(shape.strength, s.strength) + shape.bonus + rarityAt(h) + position(h, last);
    why.push(s.count === 1 ? 'a line printed once' : `a line whose template repeats ${s.count}×`);
    if (headerKeys.has(keys[h]!)) {
      score -= 0.3;
      why.push('repeats an earlier block');
    }
    headerKeys.add(keys[h]!);
    if (input.newLines) {
      let fresh = 0;
      for (let k = h; k <= e; k++) if (input.newLines.has(lines[k]!.n)) fresh++;
      const frac = fresh / (e - h + 1);
      score += 0.3 * frac - (fresh ? 0 : 0.6);
      why.push(fresh ? `${fresh} line(s) the passing run did not print` : 'the passing run printed it too');
    }
    const b = { start: lines[h]!.n, end: lines[e]!.n, header: lines[h]!.n, kind: shape.kind, score, why, source: 'generic' as const, endIdx: e };
    // A seed inside the block before it (grown back to a shared header) only strengthens that block.
    if (prev && h <= prev.endIdx) {
      prev.end = Math.max(prev.end, b.end);
      prev.endIdx = Math.max(prev.endIdx, e);
      prev.score = Math.max(prev.score, score);
      continue;
    }
    blocks.push(b);
    prev = b;
  }
  // A goal that failed on findings its checker printed unlevelled: those findings, beside the goal's failure.
  const goal = failedGoalReports(lines);
  const out: Block[] = blocks.map(({ endIdx: _, ...b }) => b);
  if (goal && !out.some((b) => b.start <= goal.end && goal.start <= b.end)) out.push(goal);
  return out;
}

/**
 * A place alone on its line over a numbered excerpt of the source (ReScript's `  /x/src/Router.res:66:32`, a blank
 * line, then `  64 ┆ …` to `  68 ┆ …`, under `We've found a bug for you!`): a compiler's report whose words come
 * after the excerpt, in no shared vocabulary. It starts a block as a failure word would.
 */
const PLACE_OVER_EXCERPT = 0.6;
function placeOverExcerpt(lines: readonly LogLine[], i: number): boolean {
  if (!isPlaceAlone(lines[i]!.text)) return false;
  // Under a heading that announces it (Flow's `References:` over the declarations its report points back to):
  // context for the report above, not a report of its own.
  let h = i - 1;
  while (h >= 0 && h >= i - EXCERPT_BELOW && lines[h]!.text.trim() === '') h--;
  if (h >= 0 && /:\s*$/.test(lines[h]!.text)) return false;
  for (let k = i + 1; k < lines.length && k <= i + EXCERPT_BELOW; k++) {
    const t = lines[k]!.text;
    if (EXCERPT_LINE.test(t)) return true;
    if (t.trim() !== '') return false;
  }
  return false;
}

/**
 * A line that only counts what a checker found: `Total errors found: 1`, `3 errors`, `Found 2 problems.`; the
 * checker may name itself before the count or the noun, and write the plural as `(s)` (bashate's `1 bashate
 * error(s) found`, omniidl's `omniidl: 1 error.`, `2 lint errors found`).
 */
const COUNTED = String.raw`(?:errors?|error\(s\)|problems?|problem\(s\)|issues?|issue\(s\))`;
const ERROR_COUNT_ONLY = new RegExp(String.raw`^\s*(?:[\w.-]+:\s+)?(?:total\s+)?${COUNTED}(?:\s+found)?\s*[:=]\s*\d+\s*\.?\s*$|^\s*(?:[\w.-]+:\s+)?(?:found\s+)?\d+\s+(?:[\w.-]+\s+)?${COUNTED}(?:\s+found)?\s*\.?\s*$`, 'i');

/** Printed once: likely the failure; printed a handful of times: perhaps; printed often: a routine line. */
function rarity(count: number): number {
  return count <= 1 ? 0.15 : count <= 3 ? 0.05 : count <= REPEATED ? -0.05 : -0.2;
}

/** Later in the step is likelier the reason: the failure is printed as the step ends. */
function position(i: number, last: number): number {
  return last > 0 ? 0.3 * Math.min(1, i / last) : 0;
}

/**
 * A line that says what a script does about a condition it handles, not that anything failed: `Creating
 * acme.json if it doesn't exist...`, `Stack not found, skipping removal.`. Its error words are conditional.
 */
const HANDLED = /\bif (?:it|they|one|\S+) (?:does ?n[o'’]t|do ?n[o'’]t|does not|do not) exist\b|\bnot found[,;] skipping\b/i;

/** A caret line under a quoted source line: `    ^`, `   ^~~~`. */
const CARET = /^\s*\^[\^~]*\s*$/;

/**
 * The source line a compiler quotes between its diagnostic and the caret (`public File createTempFile()
 * throws IOException {` under a javac warning): code, not a report; its words say nothing.
 */
function isQuotedSource(lines: readonly LogLine[], i: number): boolean {
  const above = lines[i - 1];
  const below = lines[i + 1];
  return !!above && !!below && CARET.test(below.text) && isLocatedDiagnostic(above.text);
}
