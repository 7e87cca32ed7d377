/**
 * The evidence when a passing run of the same job is known (issue 15): the failing step's NEW lines
 * (masked templates the passing run's step never printed, evidence/passing-diff.ts), in blocks, trimmed
 * to their error-bearing part. What the passing run printed too (warnings, retries that worked, the same
 * noise) is never quoted; what is new but benign (progress, downloads, `passed` counts, the build
 * tool's "re-run with -X" help) is left out; a stack trace keeps its header, its first frame and the
 * first frame of the project's own, and each `Caused by:` with its first frame.
 */
import type { LogLine } from '../types.js';
import type { Block, BlockKind } from './block.js';
import type { Selection } from './select-blocks.js';
import { MAX_EVIDENCE_BLOCKS, MAX_EVIDENCE_LINES } from '../limits.js';
import { errorScore, isAssertionLine, isConsequence, isExternalFrame, isFrame, isSnippet, isStepMarker, isSummaryHeader, isTestTitle } from './vocabulary.js';

/** A new line that says this much "failed" opens a block (a new `[WARNING] Missing header` does: 0.2). */
const MIN_START_SCORE = 0.15;
/** Blocks far weaker than the best are another run's chatter, not this failure: dropped below this share of the best. */
const MIN_SHARE_OF_BEST = 0.2;
/** Seen lines bridged inside a block (a caret, a `symbol:` line whose template the passing run printed elsewhere). */
const MAX_SEEN_BRIDGE = 1;
/** Consecutive new lines without any failure word that a block carries on through (a multi-line message body). */
const MAX_PLAIN_RUN = 12;

/** The runner's frame, never quoted. */
const RUNNER_NOISE = /^##\[error\]Process completed with exit code \d+\.?$|^##\[(?:group|endgroup)\]|^::(?:group|endgroup)::/;
/** A leading counter or log level the line's content starts after (`21786 [ERROR] `, `[INFO] `, `ERROR: `). */
const LEVEL_PREFIX = /^\s*(?:\d+\s+)?(?:\[(?:ERROR|WARN(?:ING)?|INFO|DEBUG|TRACE)\]|(?:ERROR|WARN(?:ING)?|INFO|DEBUG):?)\s?/;
/** Routine chatter at a low log level: it ends a block unless it says error itself. */
const LOW_LEVEL = /^\s*(?:\d+\s+)?(?:\[(?:INFO|DEBUG|TRACE)\]|(?:\d{2}:\d{2}:\d{2}[.,]\d+\s+)?(?:\[[^\]]*\]\s+)*(?:INFO|DEBUG|TRACE)\b)/;
/**
 * New but benign: progress and transfers, rules, the build tool's advice on getting more output, and
 * lines whose point is that things went well. None is why the step failed.
 */
const BENIGN = new RegExp(
  [
    String.raw`^[\s\-=_~*#.>|+]*$`,
    String.raw`\b(?:Download(?:ing|ed)|Upload(?:ing|ed)|Progress|Fetching|Resolving|Extracting|Unpacking|Receiving objects|Compressing objects)\b`,
    String.raw`\d+(?:\.\d+)?%`,
    String.raw`^(?:\* )?(?:Try|What went wrong):?$`,
    String.raw`^(?:re-?run|Run) (?:Maven |it )?(?:with|using) (?:the )?-|full stack trace of the errors|^For more information about the errors|^Get more help at|^(?:-> )?\[Help \d+\]|^Please refer to|resume the build|^\s*mvn <\w+>|^After correcting the problems`,
    String.raw`\b(?:Total time|Finished at|Final Memory|actionable tasks?)\b`,
    String.raw`^(?:Results|Reactor Summary)\s*:?$`,
    // Gradle's echo of the task that failed, printed beside the task's own report.
    String.raw`^(?:> Task )?:\S+ FAILED$`,
  ].join('|'),
  'i',
);
/** A count that only restates the failures listed above it (`Tests run: 1393, Failures: 2, Errors: 0, Skipped: 0`). */
const COUNT_ONLY = /^\s*Tests run: \d+, Failures: \d+, Errors: \d+, Skipped: \d+\s*$|^\s*\d+ tests? completed, \d+ failed\s*$|^\s*\d+ (?:errors?|warnings?)\s*$/;
/** An exception line and its message: a trace that only restates a message quoted above is the tool's own plumbing (`-e`, `--stacktrace`). */
const EXCEPTION_MESSAGE = /^(?:Caused by: )?[\w.$]+(?:Exception|Error|Failure)\w*: (.{12,})$/;
/** Quoted lines a restated message is looked for in: the latest this many (bounded whatever the log). */
const RESTATE_RECENT_LINES = 64;
/** Blocks of one shape (the same words and punctuation once names and numbers are masked) quoted at most this often: one failure of many is enough. */
const MAX_SAME_SHAPE = 2;

const content = (text: string): string => text.replace(LEVEL_PREFIX, '');

interface Draft {
  lines: number[];
  score: number;
  header: number;
  kind: BlockKind;
  /** A matcher recognised one of its lines: the toolchain's own report of the failure. */
  recognised: boolean;
}

/** Whether an exception line only restates a message already quoted (`LifecycleExecutionException: Failed to execute goal …`). */
function restates(text: string, quoted: readonly string[]): boolean {
  const body = content(text).trim();
  // The same header printed again (Maven repeats each compiler error in its goal failure): quoted once, at its first.
  const whole = body.length >= RESTATE_MIN_CHARS ? body.slice(0, 200) : undefined;
  const m = EXCEPTION_MESSAGE.exec(text.trim());
  const message = m ? m[1]!.trim().slice(0, 200) : undefined;
  if (!whole && !message) return false;
  return quoted.some((q) => (whole !== undefined && q.includes(whole)) || (message !== undefined && q.includes(message)));
}
/** A header shorter than this (`Failures:`) may well be printed twice for two failures: not a restatement. */
const RESTATE_MIN_CHARS = 24;

/** The shape of a block's first line: its words and punctuation with names and numbers masked. */
const shapeOf = (text: string): string => content(text).replace(/[\w$.]*\d[\w$.]*/g, '0').replace(/[A-Za-z_$][\w$.]*\(/g, 'f(').slice(0, 120);

/**
 * The blocks of new lines a person would quote, within the bound (MAX_EVIDENCE_LINES lines,
 * MAX_EVIDENCE_BLOCKS blocks), in log order. Empty when no new line says anything failed (the caller
 * then falls back to the evidence without the passing log).
 */
export function evidenceFromNewLines(lines: readonly LogLine[], newLines: ReadonlySet<number>, signalLines: ReadonlySet<number> = new Set()): Selection {
  const drafts: Draft[] = [];
  const quoted: string[] = [];
  const quote = (body: string): void => {
    quoted.push(body);
    if (quoted.length > RESTATE_RECENT_LINES) quoted.shift();
  };
  let restating = false;
  let cur: Draft | undefined;
  let ownFrameKept = false;
  let seenRun = 0;
  let plainRun = 0;
  const close = (): void => {
    if (cur) {
      while (cur.lines.length > 1 && !newLines.has(cur.lines[cur.lines.length - 1]!)) cur.lines.pop();
      drafts.push(cur);
    }
    cur = undefined;
    restating = false;
  };
  for (const l of lines) {
    const text = l.text;
    if (RUNNER_NOISE.test(text) || isStepMarker(text)) {
      close();
      continue;
    }
    const body = content(text);
    const fresh = newLines.has(l.n);
    const blank = body.trim() === '';
    if (!cur) {
      // Routine chatter at a low log level does not open a block, even when it names a failure (`[INFO] x FAILURE [5 s]`).
      if (!fresh || blank || BENIGN.test(body) || isConsequence(text) || isFrame(text) || LOW_LEVEL.test(text)) continue;
      const s = Math.max(errorScore(text), isSummaryHeader(text) || isTestTitle(text) ? 0.6 : 0);
      if (s < MIN_START_SCORE) continue;
      if (restates(text, quoted)) continue;
      cur = { lines: [l.n], score: s, header: l.n, kind: kindOf(text), recognised: signalLines.has(l.n) };
      quote(body);
      ownFrameKept = false;
      seenRun = 0;
      plainRun = 0;
      continue;
    }
    // Inside a block: a blank line, a routine low-level line or a consequence ends it.
    const s = blank ? 0 : errorScore(text);
    if (blank || isConsequence(text) || (s === 0 && LOW_LEVEL.test(text))) {
      close();
      continue;
    }
    if (!fresh) {
      // A caret or a snippet line the passing run printed under another message: bridged, once.
      if (seenRun < MAX_SEEN_BRIDGE && (isSnippet(text) || /^\s+\S/.test(text))) {
        seenRun++;
        cur.lines.push(l.n);
        continue;
      }
      close();
      continue;
    }
    seenRun = 0;
    if (BENIGN.test(body)) continue;
    const frame = isFrame(text) && !/^Caused by: /.test(text);
    if (frame) {
      // The project's first own frame: the runtime's, the test runner's and the build tool's are plumbing.
      if (!restating && !ownFrameKept && !isExternalFrame(text)) {
        cur.lines.push(l.n);
        ownFrameKept = true;
        if (cur.kind === 'error') cur.kind = 'trace';
      }
      continue;
    }
    if (/^Caused by: /.test(text) || s >= MIN_START_SCORE) {
      // A new failure header after a trace keeps its own first frame.
      ownFrameKept = false;
      restating = restates(text, quoted);
      if (restating) continue;
    } else if (restating) continue;
    if (signalLines.has(l.n)) cur.recognised = true;
    quote(body);
    if (s === 0 && !isAssertionLine(text) && !isSnippet(text)) {
      if (++plainRun > MAX_PLAIN_RUN) {
        close();
        continue;
      }
    } else plainRun = 0;
    cur.score = Math.max(cur.score, s);
    cur.lines.push(l.n);
  }
  close();
  return select(drafts, lines);
}

function kindOf(text: string): BlockKind {
  if (isSummaryHeader(text)) return 'summary';
  if (isTestTitle(text) || isAssertionLine(text)) return 'assertion';
  return 'error';
}

/** The best blocks within the bound, the first failure and the last word first among equals, in log order. */
function select(drafts: Draft[], lines: readonly LogLine[]): Selection {
  const text = new Map(lines.map((l) => [l.n, l.text] as const));
  // A lone count restates the failures listed beside it: quoted only when nothing else is new.
  let kept = drafts.filter((d) => !(d.lines.length === 1 && COUNT_ONLY.test(content(text.get(d.lines[0]!) ?? ''))));
  if (!kept.length) kept = drafts;
  if (!kept.length) return { blocks: [], lines: [] };
  const best = Math.max(...kept.map((d) => d.score));
  kept = kept.filter((d) => d.score >= best * MIN_SHARE_OF_BEST);
  // What a matcher recognised first; among blocks of one strength, the first failure, then the last (the
  // tool's own summary of it), then in order; a shape seen MAX_SAME_SHAPE times gives way to the rest.
  const first = kept[0]!;
  const last = kept[kept.length - 1]!;
  const rank = (d: Draft): number => (d === first ? 0 : d === last ? 1 : 2);
  const shapes = new Map<string, number>();
  const nth = new Map<Draft, number>();
  for (const d of kept) {
    const k = shapeOf(text.get(d.lines[0]!) ?? '');
    const c = shapes.get(k) ?? 0;
    shapes.set(k, c + 1);
    nth.set(d, c);
  }
  const ranked = [...kept].sort((a, b) => Math.min(nth.get(a)!, 1) - Math.min(nth.get(b)!, 1) || Number(b.recognised) - Number(a.recognised) || Math.round((b.score - a.score) * 10) || rank(a) - rank(b) || a.lines[0]! - b.lines[0]!);
  const chosen: Draft[] = [];
  let budget = MAX_EVIDENCE_LINES;
  for (const d of ranked) {
    if (chosen.length >= MAX_EVIDENCE_BLOCKS || budget <= 0) break;
    if (nth.get(d)! >= MAX_SAME_SHAPE) continue;
    const q = d.lines.slice(0, budget);
    budget -= q.length;
    chosen.push({ ...d, lines: q });
  }
  chosen.sort((a, b) => a.lines[0]! - b.lines[0]!);
  const blocks: Block[] = chosen.map((d) => ({ start: d.lines[0]!, end: d.lines[d.lines.length - 1]!, header: d.header, kind: d.kind, score: d.score, why: ['new in the failing run: the passing run of the job never printed it'], source: 'diff' }));
  return { blocks, lines: chosen.flatMap((d, i) => d.lines.map((n) => ({ line: n, text: text.get(n) ?? '', block: i }))) };
}
