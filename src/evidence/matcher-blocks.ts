import type { Category, LogLine, Signal } from '../types.js';
import type { Block, BlockKind } from './block.js';
import { describeBlock } from './describe-block.js';
import { blockEnd, headerAbove, isEmptyLine } from './grow-block.js';
import { MAX_BLOCK_LINES } from '../limits.js';
import { indentOf, isConsequence, isTestTitle } from './vocabulary.js';

/** Matcher blocks start above any generic one: a toolchain that recognised its own output knows best. */
const MATCHER_BASE = 1.2;
/**
 * The lines behind the pin are what the reader needs beside it; but among like failures the first is what
 * a person quotes, so the bonus stays smaller than the band within which the earlier block wins.
 */
const PINNED_BONUS = 0.15;
/** A stack frame line (`    at fn (file:1:2)`, `  File "x.py", line 3, in f`): where, never why. */
const FRAME_LINE = /^\s+at \S|^\s*File "[^"]+", line \d+/;
/** A signal of another category than the diagnosis' (a lint warning in a test failure) is context. */
const OFF_CATEGORY_PENALTY = 0.7;

export interface MatcherBlockInput {
  signals: readonly Signal[];
  lines: readonly LogLine[];
  category: Category;
  /** Log lines behind the pinned findings (their signals' lines): their blocks come first. */
  pinned?: ReadonlySet<number>;
}

/**
 * The matchers' signals as blocks, widened to their whole block: from the header the signal's line
 * belongs to (a test's title above an assertion) through its related lines and the continuation that
 * follows (the trace under an exception). Identifiers, frames and the generic matcher's lines are left
 * to the generic finder, which sees the structure around them.
 */
export function blocksFromSignals(input: MatcherBlockInput): Block[] {
  const index = new Map<number, number>();
  input.lines.forEach((l, i) => index.set(l.n, i));
  const out: Block[] = [];
  // A warning is context when the step also reports an error: not quoted even behind a pin (a javac
  // `warning: [removal]` printed just above the `error: cannot find symbol` that failed the build).
  const errors = input.signals.some((s) => s.severity !== 'warning' && (s.kind === 'diagnostic' || s.kind === 'test') && s.weight >= 0.5 && s.tool !== 'generic' && s.tool !== 'evidence');
  for (const s of input.signals) {
    const pinned = input.pinned?.has(s.logLine) ?? false;
    if (s.kind === 'identifier' || s.tool === 'generic' || s.tool === 'evidence') continue;
    if (s.kind === 'frame' && !pinned) continue;
    // A restatement is never quoted, even behind the pin: the failure it restates is (and is pinned too).
    if (s.restatement) continue;
    if (s.severity === 'warning' && (!pinned || errors)) continue;
    if (!pinned && s.weight < 0.5) continue;
    const at = index.get(s.logLine);
    if (at === undefined) continue;
    let lo = at;
    let hi = at;
    const own = new Set([s.logLine, ...(s.related ?? [])]);
    for (const r of s.related ?? []) {
      const j = index.get(r);
      if (j === undefined || Math.abs(j - at) > MAX_BLOCK_LINES) continue;
      // A related line past the tool's verdict (Maven's `BUILD FAILURE`, the reactor's `… FAILURE`) is its
      // restatement in the closing report, not the block: the block never runs across a verdict that is not
      // one of its own lines (npm's `npm error errno …` heads its own report).
      if (crossesConsequence(input.lines, at, j, own)) continue;
      lo = Math.min(lo, j);
      hi = Math.max(hi, j);
    }
    // Related lines past the next test's title (at the signal's own indent) belong to that test.
    for (let j = at + 1; j <= hi; j++) {
      const t = input.lines[j]!.text;
      if (isTestTitle(t) && indentOf(t) <= indentOf(input.lines[at]!.text)) {
        hi = Math.max(at, j - 1);
        break;
      }
    }
    const h = headerAbove(input.lines, lo);
    // A pinned frame whose block is frames alone after a blank line: the exception's message above them was
    // too long to reach (Turbopack's `Error: … failed with 12 errors:` and its twelve reports, then the
    // frames). The frames say where, not why; the message's header is left to the generic finder. (Frames
    // right under a message line that headerAbove could not climb past are still that message's block.)
    if (s.kind === 'frame' && FRAME_LINE.test(input.lines[h]!.text) && (h === 0 || isEmptyLine(input.lines[h - 1]!.text))) continue;
    // Grown from the header alone first, so that the project's own frames above a pinned frame count: the
    // runner's frames under them (JUnit's reflection, surefire's provider) are plumbing, not the block.
    const natural = blockEnd(input.lines, h, h);
    const grown = Math.min(natural >= hi ? natural : blockEnd(input.lines, h, hi), h + MAX_BLOCK_LINES * 2);
    // The matcher read where its tool's block ends: that bound wins over the shape (never above its own lines).
    const until = s.blockEnd === undefined ? undefined : index.get(s.blockEnd);
    const e = until === undefined ? grown : Math.max(hi, until);
    const shape = describeBlock(input.lines, h, e, h);
    const offCategory = input.category !== 'unknown' && s.category !== undefined && s.category !== input.category;
    const why = [`${s.tool ?? 'a matcher'} recognised it`, ...shape.why];
    if (pinned) why.push('behind the pin');
    if (offCategory) why.push(`a ${s.category} signal in a ${input.category} failure`);
    out.push({
      start: input.lines[h]!.n,
      end: input.lines[e]!.n,
      header: input.lines[h]!.n,
      kind: kindOf(s, shape.kind),
      score: MATCHER_BASE + 0.5 * s.weight + (pinned ? PINNED_BONUS : 0) - (offCategory ? OFF_CATEGORY_PENALTY : 0),
      why,
      source: 'matcher',
      ...(until === undefined ? {} : { closed: true }),
    });
  }
  return out;
}

/**
 * Whether a verdict line sits between the signal (index a) and a related line (b) past a break in the
 * signal's own run of lines (a blank line, Maven's `[INFO]` alone): the closing report, not the block.
 */
function crossesConsequence(lines: readonly LogLine[], a: number, b: number, own: ReadonlySet<number>): boolean {
  if (a === b) return false;
  const step = b > a ? 1 : -1;
  let broken = false;
  for (let j = a + step; j !== b; j += step) {
    const t = lines[j]!.text;
    if (isEmptyLine(t)) broken = true;
    else if (broken && !own.has(lines[j]!.n) && isConsequence(t)) return true;
  }
  return false;
}

function kindOf(s: Signal, shaped: BlockKind): BlockKind {
  if (s.category === 'infra') return 'infra';
  if (s.kind === 'test') return shaped === 'trace' ? 'trace' : 'assertion';
  if (s.kind === 'frame') return 'trace';
  return shaped === 'summary' || shaped === 'trace' || shaped === 'assertion' ? shaped : 'diagnostic';
}
