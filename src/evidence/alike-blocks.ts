/**
 * Alike failure blocks (DESIGN.md §3a, "repetition: the first of repeated frames or messages"): N tests
 * failing one way, a compiler error repeated down a list. Compared by their line templates, so the test's
 * name, the numbers and the paths that differ between them do not count.
 */
import type { Block } from './block.js';
import { MAX_EVIDENCE_LINES } from '../limits.js';
import { lineKey } from './templates.js';
import { PYTEST_TITLE } from './condense-block.js';
import { PY_TRACEBACK_HEAD } from './vocabulary.js';

/** A compiler error at a location, as gcc, clang, tsc and javac print it: `zpipe.c:36:9: error: …`, `a.ts(4,26): error TS2307`. */
const LOCATED_ERROR = /^\S*\.\w{1,10}(?::\d+(?::\d+)?:|\(\d+(?:,\d+)?\):?)\s*(?:fatal )?error\b/;

/** Two failure blocks share at least this share of the smaller one's line templates: the same failure again. */
const ALIKE_SHARE = 0.5;
/** Blocks with fewer distinct lines than this are too short to call alike by their lines (a lone error line). */
const MIN_ALIKE_LINES = 3;
export const ALIKE_WHY = 'the same failure as an earlier block';
/** This many alike failures are all quoted (two tests broken by one change fit, and say it is not one test); more, the first stands for them. */
const ALIKE_ALL_MAX = 2;

/** The templates of some lines (blank lines and banners left out): what `alike` compares. */
function keysOf(nums: readonly number[], text: ReadonlyMap<number, string>): Set<number> {
  const out = new Set<number>();
  for (const n of nums) {
    const t = text.get(n);
    // A rule or banner (`-----`, `==== ERRORS ====`) frames every block alike: not compared.
    if (t !== undefined && /[a-z0-9]/i.test(t) && !/^\s*[-=_~*#]{4,}/.test(t)) out.add(lineKey(t));
  }
  return out;
}

/** Two failures are alike when they share at least ALIKE_SHARE of the smaller one's line templates. */
function alike(a: ReadonlySet<number>, b: ReadonlySet<number>): boolean {
  let shared = 0;
  for (const k of a) if (b.has(k)) shared++;
  return shared >= ALIKE_SHARE * Math.min(a.size, b.size);
}

/**
 * A list of compiler errors is one block (each `file:line:col: error: …` with its source and caret, touching
 * the next); when the same error repeats down the list (`unknown type name ‘FILE’` at four places), the
 * repeats past the first two are left out of the quoted lines and the other errors stay, in order.
 */
export function withoutRepeatedErrors(b: Block, text: ReadonlyMap<number, string>): Block {
  const nums = b.lines ?? range(b.start, b.end);
  const cuts = nums.flatMap((n, i) => (LOCATED_ERROR.test(text.get(n) ?? '') ? [i] : []));
  if (cuts.length <= ALIKE_ALL_MAX) return b;
  const pieces = cuts.map((c, i) => nums.slice(c, cuts[i + 1] ?? nums.length));
  const groups: { keys: Set<number>; pieces: number[][] }[] = [];
  for (const p of pieces) {
    const keys = keysOf(p, text);
    const g = groups.find((x) => alike(keys, x.keys));
    if (g) g.pieces.push(p);
    else groups.push({ keys, pieces: [p] });
  }
  // A list shows a repeat in a line or two: its first ALIKE_ALL_MAX say that it repeats, the rest are left out.
  const dropped = new Set(groups.flatMap((g) => g.pieces.slice(ALIKE_ALL_MAX).flat()));
  if (!dropped.size) return b;
  const keep = nums.filter((n) => !dropped.has(n));
  return { ...b, lines: keep, why: [...b.why, 'the first of like errors in a list'] };
}

/** A JVM exception's line at the left margin (`Exception in thread "main" java.lang.NoClassDefFoundError: …`, or the same exception printed again without the thread). */
const JVM_EXCEPTION_HEAD = /^(?:Exception in thread "[^"]*" )?(?:[a-z_$][\w$]*\.)+[A-Z][\w$]*(?:Exception|Error)\b(?::|$)/;
/** Where a traceback starts: Python's header (a tool may print its own words before it on the line), or a JVM exception's line. */
const TRACE_HEAD = new RegExp(`${PY_TRACEBACK_HEAD.source}|${JVM_EXCEPTION_HEAD.source}`);
/** What a JVM prints before an uncaught exception's own line: not part of what repeats. */
const THREAD_PREFIX = /^Exception in thread "[^"]*" /;

/**
 * A block holding the same traceback twice or more (a script that runs a failing helper once per item, a
 * JVM printing its uncaught exception again): the repeats say nothing the first did not, and are left
 * out; the tracebacks that differ stay, in order. Compared line for line (the thread prefix aside; a copy the
 * block cut short counts), so two
 * failures at different places or with different messages are both kept.
 */
export function withoutRepeatedTracebacks(b: Block, text: ReadonlyMap<number, string>): Block {
  const nums = b.lines ?? range(b.start, b.end);
  const cuts = nums.flatMap((n, i) => (TRACE_HEAD.test(text.get(n) ?? '') ? [i] : []));
  if (cuts.length < 2) return b;
  const seen: string[][] = [];
  const dropped = new Set<number>();
  for (const [i, c] of cuts.entries()) {
    const piece = nums.slice(c, cuts[i + 1] ?? nums.length);
    const said = piece.map((n) => (text.get(n) ?? '').replace(THREAD_PREFIX, '').trim()).filter((t) => t !== '');
    // The block may end inside the last copy (before its `... 5 more`): a copy cut short is still a copy.
    if (seen.some((e) => said.length <= e.length && said.every((t, k) => t === e[k]))) for (const n of piece) dropped.add(n);
    else seen.push(said);
  }
  if (!dropped.size) return b;
  return { ...b, lines: nums.filter((n) => !dropped.has(n)), why: [...b.why, 'a repeated traceback quoted once'] };
}

/** A line of Gradle's cause chain under `* What went wrong:` (`> Could not resolve …`, nested deeper each time). */
const CAUSE = /^\s*> (\S.*)$/;

/**
 * Gradle's cause chain that states a cause it already stated (a resolver recursing through the same POM,
 * `> Could not resolve X` / `> Could not parse POM …` at every depth; the same configuration's failure listed
 * again): from the first repeat to the end of the chain (a blank line, or a line at the margin that is not a
 * cause) nothing new is said, so it is left out.
 */
export function withoutRepeatedCauses(b: Block, text: ReadonlyMap<number, string>): Block {
  const nums = b.lines ?? range(b.start, b.end);
  const stated = new Set<string>();
  const dropped = new Set<number>();
  let repeating = false;
  for (const n of nums) {
    const t = text.get(n) ?? '';
    const cause = CAUSE.exec(t)?.[1]?.trim();
    if (repeating) {
      if (t.trim() === '' || (!/^\s/.test(t) && !cause)) repeating = false;
      else {
        dropped.add(n);
        continue;
      }
    }
    if (cause === undefined) continue;
    if (stated.has(cause)) {
      repeating = true;
      dropped.add(n);
    } else stated.add(cause);
  }
  if (!dropped.size) return b;
  return { ...b, lines: nums.filter((n) => !dropped.has(n)), why: [...b.why, 'a cause chain quoted to its first repeat'] };
}

/**
 * N tests failing the same way print N blocks that differ by the test's name and a frame or two: a
 * person quotes the first of them (of two, both). Blocks of failures (assertions, traces, matcher
 * diagnostics, pytest's sections) that share most of their line templates (numbers, paths, names masked) are alike; the later ones score
 * `decay` less before they are ranked, so the first stands for them even when the pin sits
 * behind a later one. In place. Summaries and the generic finder's one-line blocks are left alone.
 */
export function firstOfAlike(blocks: Block[], text: ReadonlyMap<number, string>, decay: number): void {
  const groups: { keys: Set<number>; members: Block[] }[] = [];
  for (const b of [...blocks].sort((x, y) => x.start - y.start)) {
    if (b.kind === 'summary' && !PYTEST_TITLE.test(text.get(b.start) ?? '')) continue;
    const keys = keysOf(b.lines ?? range(b.start, Math.min(b.end, b.start + MAX_EVIDENCE_LINES)), text);
    if (keys.size < MIN_ALIKE_LINES) continue;
    const group = groups.find((g) => alike(keys, g.keys));
    if (group) group.members.push(b);
    else groups.push({ keys, members: [b] });
  }
  for (const { members } of groups) {
    if (members.length <= ALIKE_ALL_MAX) continue;
    for (const b of members.slice(1)) {
      b.score -= decay;
      b.why = [...b.why, ALIKE_WHY];
    }
  }
}

function range(a: number, b: number): number[] {
  const out: number[] = [];
  for (let n = a; n <= b; n++) out.push(n);
  return out;
}
