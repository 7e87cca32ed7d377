import type { Category, LogLine, Signal } from '../types.js';
import type { Block } from './block.js';
import { DIFF_BODY, DIFF_HUNK, DIFF_NEW_FILE, DIFF_OLD_FILE, isConsequence, PLACE_REPORT } from './vocabulary.js';
import { MAX_BLOCK_LINES } from '../limits.js';
import { blockEnd, isContinuation } from './grow-block.js';
import { leadingLocation } from './read-locations.js';
import { movedLine } from './moved-line.js';

/**
 * What a step printed when nothing in it says "error" or "failed" and it still failed: a checker that
 * lists its findings (pyflakes' `src/a.py:10:1: 'x' imported but unused`, codespell's `docs/a.rst:89:
 * recieve ==> receive`) or a formatter that prints the diff it wants (`shfmt -d`, `black --diff`). The
 * exit code is the tool's verdict; these lines are its reasons. Used only when the generic finder found
 * no line that says failure, so a step with real error words is never read this way.
 */

/** A place report this far from the step's end still belongs to the failing tool (not an earlier command's output). */
const REPORT_TAIL = 60;
/** Quiet reports quoted as one block: a checker's first findings say what the rest do. */
const MAX_REPORTS = 8;
/**
 * Just over select-blocks' floor (0.75), so the block is quoted, and under what a block that states a
 * failure at a step's end scores (0.5 strength + 0.15 rarity + 0.3 position): a matcher's block wins.
 */
const DIFF_SCORE = 0.85;
const REPORT_SCORE = 0.8;

export function quietBlocks(lines: readonly LogLine[], last: number): Block[] {
  const diff = formatterDiff(lines, last);
  if (diff) return [diff];
  const reports = placeReports(lines, last);
  return reports ? [reports] : [];
}

/** The first file's unified diff: `--- f`, `+++ f`, then its hunks, quoted whole up to the block bound. */
function formatterDiff(lines: readonly LogLine[], last: number): Block | undefined {
  for (let i = 0; i + 2 <= last; i++) {
    if (!DIFF_OLD_FILE.test(lines[i]!.text) || !DIFF_NEW_FILE.test(lines[i + 1]!.text) || !DIFF_HUNK.test(lines[i + 2]!.text)) continue;
    let end = i + 2;
    while (end + 1 <= last && end + 1 - i < MAX_BLOCK_LINES && (DIFF_BODY.test(lines[end + 1]!.text) || DIFF_HUNK.test(lines[end + 1]!.text))) {
      if (DIFF_OLD_FILE.test(lines[end + 1]!.text) && DIFF_NEW_FILE.test(lines[end + 2]?.text ?? '')) break;
      end++;
    }
    end = lastChange(lines, i + 3, end);
    return { start: lines[i]!.n, end: lines[end]!.n, header: lines[i + 1]!.n, kind: 'diagnostic', score: DIFF_SCORE, why: ['a formatter\'s diff of a file, in a step that printed no error'], source: 'generic' };
  }
  return undefined;
}

/** The run of place reports nearest the step's end, its first ones. */
function placeReports(lines: readonly LogLine[], last: number): Block | undefined {
  let first = -1;
  let end = -1;
  let count = 0;
  for (let i = Math.max(0, last - REPORT_TAIL); i <= last; i++) {
    const t = lines[i]!.text;
    // The GNU header, or any report that opens with its place (Asciidoctor's `asciidoctor: WARNING: a.adoc: line 10: …`)
    if (t.length > 2000 || isConsequence(t) || !(PLACE_REPORT.test(t) || leadingLocation(t))) continue;
    if (first === -1) first = i;
    if (count < MAX_REPORTS) end = i;
    count++;
  }
  if (first === -1) return undefined;
  const reportEnd = end;
  // The last report's own continuation (libxml2's excerpt and caret under `a.xml:31.36: …`).
  end = Math.min(last, Math.max(end, blockEnd(lines, end)));
  // and the trace a runtime prints under its report (Lua's `stack traceback:` and its frames): one failure.
  while (end + 1 <= last && end - first < MAX_BLOCK_LINES && (isContinuation(lines[end + 1]!.text) || (/:\s*$/.test(lines[end + 1]!.text) && isContinuation(lines[end + 2]?.text ?? '')))) end++;
  end = lastChange(lines, reportEnd + 1, end);
  return { start: lines[first]!.n, end: lines[end]!.n, header: lines[first]!.n, kind: 'diagnostic', score: REPORT_SCORE, why: [`${count} report(s) of a place, in a step that printed no error`], source: 'generic' };
}

/** What a place read off a formatter's diff weighs: a located report's (read-locations' header weight). */
const DIFF_WEIGHT = 0.7;

/**
 * The place a formatter's diff names: its file (`+++ path`, else `--- path` without the `.orig` the tool
 * adds) at the first line it would change, counted on the old side of the first hunk (the file as the
 * checkout has it): the hunk's start plus the context lines above its first `-` or `+`.
 */
export function diffHunkSignals(blocks: readonly Block[], lines: readonly LogLine[], category: Category): Signal[] {
  const out: Signal[] = [];
  const at = new Map(lines.map((l, i) => [l.n, i] as const));
  for (const b of blocks) {
    const i = at.get(b.start);
    if (i === undefined || !DIFF_OLD_FILE.test(lines[i]!.text) || !DIFF_NEW_FILE.test(lines[i + 1]?.text ?? '')) continue;
    const hunk = DIFF_HUNK.exec(lines[i + 2]?.text ?? '');
    if (!hunk) continue;
    let line = Number(hunk[1]);
    let n = i + 3;
    for (; n < lines.length && lines[n]!.n <= b.end && /^ |^$/.test(lines[n]!.text); n++) line++;
    if (n >= lines.length || !/^[+-]/.test(lines[n]!.text)) continue;
    const hunkTexts: string[] = [];
    for (let k = n; k < lines.length && lines[k]!.n <= b.end && !DIFF_HUNK.test(lines[k]!.text); k++) hunkTexts.push(lines[k]!.text);
    line = movedLine(hunkTexts, line) ?? line;
    const newPath = DIFF_NEW_FILE.exec(lines[i + 1]!.text)![1]!;
    const oldPath = DIFF_OLD_FILE.exec(lines[i]!.text)![1]!.replace(/\.orig$/, '');
    const path = newPath === '/dev/null' ? oldPath : newPath;
    out.push({
      kind: 'diagnostic', path: path.replace(/^[ab]\//, ''), line: Math.max(1, line),
      message: `${lines[i + 1]!.text.trim()} ${lines[i + 2]!.text.trim()}`.slice(0, 500),
      tool: 'evidence', ...(category !== 'unknown' ? { category } : {}), severity: 'error', weight: DIFF_WEIGHT, logLine: lines[n]!.n,
    });
  }
  return out;
}

/**
 * A block ends at the first empty line after its last change or report (rustfmt's `Diff in a.rs:1:` and
 * shfmt's hunks go on with unchanged lines): past it is the file's unchanged rest, not the failure.
 */
function lastChange(lines: readonly LogLine[], from: number, end: number): number {
  let start = from;
  for (let k = from; k <= end; k++) if (/^[+-]/.test(lines[k]!.text)) start = k;
  for (let k = start; k <= end; k++) if (lines[k]!.text.trim() === '') return Math.max(from - 1, k - 1);
  return end;
}
