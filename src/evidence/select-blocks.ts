import type { EvidenceLine, LogLine } from '../types.js';
import type { Block } from './block.js';
import { MAX_EVIDENCE_BLOCKS, MAX_EVIDENCE_LINES } from '../limits.js';
import { lineKey, lineTemplate } from './templates.js';
import { withoutDomDump } from './dom-dump.js';
import { errorScore, isConsequence, isProgressLine, MODULE_NOT_LOADED, isExternalFrame, isFrame, isSummaryHeader, isTestTitle } from './vocabulary.js';
import { condenseBlock, PYTEST_TITLE } from './condense-block.js';
import { ALIKE_WHY, firstOfAlike, withoutRepeatedCauses, withoutRepeatedErrors, withoutRepeatedTracebacks } from './alike-blocks.js';
import { isEmptyLine } from './grow-block.js';
import { isPassedTrace } from './passed-trace.js';
import { isSurvivedAptError } from './survived-apt-error.js';
import { isExitRestatingTrace } from './exit-restating-trace.js';
import { isCapturedOutput, isPassedGradleTestOutput } from './captured-output.js';
import { isRestatedTestVerdict } from './restated-test-verdict.js';
import { withoutSurvivedBuild } from './survived-build.js';

const RESTATING_WHY = "a wrapper's error restating a child's exit";

/** The fixed words of a message: its template up to the first quoted or bracketed value (`E AssertionError: Lists differ: `). */
const VALUE_START = /['"`\[({<]/;

/**
 * What a block's message says, to tell a repeat from another failure: the fixed words of its most
 * error-like line that is not a test's title (the title names the test, the message the cause).
 */
function messageKey(b: Block, text: ReadonlyMap<number, string>): string | undefined {
  let best: string | undefined;
  let bestScore = 0;
  for (const n of b.lines ?? range(b.start, Math.min(b.end, b.start + MAX_EVIDENCE_LINES))) {
    const t = text.get(n);
    if (t === undefined || isTestTitle(t) || PYTEST_TITLE.test(t)) continue;
    const s = errorScore(t);
    if (s > bestScore) {
      bestScore = s;
      best = t;
    }
  }
  if (best === undefined) return undefined;
  const tpl = lineTemplate(best);
  const cut = tpl.search(VALUE_START);
  const key = (cut < 0 ? tpl : tpl.slice(0, cut)).trim();
  return key.length >= 8 ? key : undefined;
}

function range(a: number, b: number): number[] {
  const out: number[] = [];
  for (let n = a; n <= b; n++) out.push(n);
  return out;
}

/** A block scoring less than this is not evidence of anything (a lone "missing" in a help text). */
const MIN_BLOCK_SCORE = 0.75;
/** Blocks this far below the best are other things the log says, not the failure: left out. */
const RELATIVE_WINDOW = 0.55;
/**
 * Each further block of the same kind from the same source scores this much less: the first failures say it, the 40th
 * repeats it. (0.45 was tried in session 25: it wins four wild logs' precision, loses bats' four `not ok` blocks and
 * drops a hostile line's block the Action test relies on; a tuned constant, so not kept.)
 */
const SAME_KIND_DECAY = 0.35;
/**
 * A block whose message says what an earlier one said (N tests failing with `TypeError: x is not a
 * function`) scores this much less again: more than RELATIVE_WINDOW, so a person's "the first of N
 * failures with the same cause" holds (a summary naming them all is kept beside it).
 */
const SAME_MESSAGE_DECAY = 0.6;
/**
 * A generic block printed before the best matcher block and scoring this much less than it is left out:
 * the matcher's block is the recognised cause, the earlier line something the step went on past.
 */
const EARLIER_GENERIC_MARGIN = 0.3;
/** Like blocks whose scores are this close are equals: the earlier one is quoted first. */
const LIKE_BAND = 0.3;
/** A summary added beside the detail blocks is quoted by its first lines. */
const MAX_SUMMARY_LINES = 6;
/**
 * A line of a keyed table of counts (jest's `Test Suites: 1 failed, 66 passed, 67 total`, `Tests: …`,
 * `Time: 3.2 s`, `Ran all test suites.`): the run's report card, printed by passing runs too, naming no
 * failure. People quote a runner's sentence of counts (`1 failing`, `3 runs, 3 assertions, 1 failures`,
 * `=== 3 failed in 1.2s ===`) beside the failure, not its table.
 */
const COUNT_LINE = new RegExp(
  [
    String.raw`^\s*[A-Z][\w ]{0,20}:\s+(?:\d+ [a-z]+(?: [a-z]+)?,?\s*)+$`,
    String.raw`^\s*(?:Time|Snapshots|Duration|Start at):\s`,
    String.raw`^\s*Ran all test suites`,
  ].join('|'),
  'i',
);
/**
 * A line of a test run's tally: a count of tests that passed (`5457 tests run: 5456 passed, 1 failed`,
 * `Test Files  1 failed | 3 passed (4)`, `10 passing (2s)`), or a row of the keyed table jest and vitest print
 * under the counts (`Start at  12:45:56`, `Duration  218.59s (…)`, `Time: 3.2 s`), or a keyed count table line.
 * Passing runs print it too; it names no failure.
 */
const TALLY = /\b\d+ (?:tests? )?(?:passed|passing)\b|^\s*(?:Test Files|Test Suites|Tests|Snapshots|Start at|Duration|Time)(?::\s+|\s{2,})\S/;
const isRunTally = (t: string): boolean => t.length < 500 && (TALLY.test(t) || COUNT_LINE.test(t));
/**
 * What a block scores less for each way it says something the step went on past or restates (a warning's
 * trace, a traceback raised while handling the one above, an annotation restating a printed failure): more
 * than RELATIVE_WINDOW, so it gives way to any failure beside it, and is still quoted when it is all there is.
 */
const DEMOTION = 0.6;
/** errorScore of a line in failure's own words (FAILURE_WORDS and stronger): an error, not a warning's context. */
const ERROR_LIKE = 0.6;
/**
 * A stack trace a warning printed (jest's `console.warn` entry, moment's `Deprecation warning:` with its
 * `Error: ` and frames, a test's STANDARD_ERROR `WARN … - Failed to export spans` with its exception) is
 * something the step went on past, not why it failed.
 */
/** How far above a trace its warning may be printed: jest's console entry puts the message, a code frame and the call site first. */
const WARNING_LOOKBACK = 30;
/** A warning's words (a logger's level, `console.warn`, `Deprecation warning`, `DeprecationWarning`). */
const WARNING_WORDS = /\bconsole\.warn\b|\bwarn(?:ing)?s?\b|Warning:|\bdeprecat|\bWARN\b/i;

/**
 * Whether a trace block is a warning's: its header says warn, or reading up from it over frames, blank
 * and quiet lines, a warning's words come before any error-like line that does not say warn.
 */
function isWarningTrace(b: Block, text: ReadonlyMap<number, string>): boolean {
  if (b.kind !== 'trace') return false;
  const says = (t: string) => WARNING_WORDS.test(t) && !/\berror\b/i.test(t);
  const head = text.get(b.header) ?? '';
  if (says(head)) return true;
  // A trace under a test runner's failure header (jest's `FAIL file` / `● title`) is that failure's, whatever
  // the console printed just above the header.
  if (FAILURE_HEADER.test(text.get(Math.min(b.start, b.header)) ?? '')) return false;
  let n = Math.min(b.start, b.header) - 1;
  while (n > 0 && (text.get(n) ?? '').trim() === '') n--;
  // A logger's warning line with the exception it was handed printed below it.
  if (text.get(n) !== undefined && says(text.get(n)!)) return true;
  // An exception with a message of its own is an error; a bare `Error: ` is the carrier of a warning's trace.
  if (errorScore(head) >= ERROR_LIKE && !isFrame(head) && !BARE_EXCEPTION.test(head)) return false;
  for (let k = n; k >= Math.max(1, b.start - WARNING_LOOKBACK); k--) {
    const t = text.get(k);
    if (t === undefined) break;
    if (t.trim() === '' || isFrame(t)) continue;
    if (WARNING_WORDS.test(t)) return true;
    if (errorScore(t) >= ERROR_LIKE) return false;
  }
  return false;
}
/** A test runner's header of a failure: jest's `FAIL file` and `● Suite › test`. */
const FAILURE_HEADER = /^\s*(?:FAIL {1,2}\S|● \S)/;
/** An exception's name with no message (`Error: `, `Error`): what JavaScript prints to show where a warning was raised. */
const BARE_EXCEPTION = /^\s*\w*(?:Error|Exception):?\s*$/;

/**
 * A workflow-command annotation (`::error file=…,title=…::AssertionError: expected …`) that a reporter
 * prints for a failure it also prints in full in the step (vitest's and jest's github reporters) restates
 * that failure: the step's own block is quoted first and the annotation only when nothing else says it.
 */
const ANNOTATION = /^::(?:error|warning|notice)\b[^:]*(?::(?!:)[^:]*)*::(.*)$/;
/** A message shorter than this (`Error`, `failed`) is printed by too many lines to tell a restatement. */
const MIN_RESTATED_CHARS = 12;

/** The blocks headed by an annotation whose message's first line is printed, on its own, elsewhere in the step. */
function restatedAnnotations(blocks: readonly Block[], lines: readonly LogLine[], text: ReadonlyMap<number, string>): Set<Block> {
  const out = new Set<Block>();
  const heads = blocks.flatMap((b) => {
    const m = ANNOTATION.exec((text.get(b.header) ?? '').trimStart());
    const msg = m?.[1]!.split(/%0A/i)[0]!.replace(/%0D/gi, '').replace(/%25/g, '%').trim();
    return msg && msg.length >= MIN_RESTATED_CHARS ? [{ b, msg }] : [];
  });
  if (!heads.length) return out;
  const printed = new Set(lines.filter((l) => !l.text.trimStart().startsWith('::')).map((l) => l.text.trim()));
  for (const h of heads) if (printed.has(h.msg)) out.add(h.b);
  return out;
}

/**
 * Python's chained traceback: the one printed after `During handling of the above exception, another
 * exception occurred:` is what the handler broke on while reporting the first, which is the cause people
 * quote: the first is quoted first and the second only when it fits beside.
 */
const DURING_HANDLING = /During handling of the above exception, another exception occurred:\s*$/;
/**
 * Python's other chaining sentence, printed above the exception raised `from` the one above it. When that
 * later traceback was raised in plumbing (its last frame, where it raised, is not the project's: the entry
 * script `manage.py` may still be its first), it is the cause re-raised in another place: multiprocessing's
 * and concurrent.futures' `RemoteTraceback` re-raised in the parent process, a framework wrapping the error on
 * its way out. The cause above it, with the project's frames, is the failure. A traceback raised in the
 * project's own code (`raise ConfigError(…) from e`) is kept.
 */
const DIRECT_CAUSE = /The above exception was the direct cause of the following exception:\s*$/;
/** A Python traceback frame (`File "x.py", line 3, in f`). */
const PY_FRAME_LINE = /^\s*File "[^"]*", line \d+/;
/** Whether the block's last Python frame (most recent call last: where it raised) is external (isExternalFrame). */
function raisedInPlumbing(b: Block, text: ReadonlyMap<number, string>): boolean {
  for (let n = b.end; n >= b.start; n--) {
    const t = text.get(n) ?? '';
    if (PY_FRAME_LINE.test(t)) return isExternalFrame(t);
  }
  return false;
}
/** How far above a traceback's first line Python prints the chaining sentence (a blank line between). */
const CHAIN_LOOKBACK = 3;

/**
 * pytest's long traceback prints each frame's source between the chaining sentence and the `>` line a
 * condensed block starts at: read up over that listing, as far as the exception lines, title or rule that
 * close the traceback before it.
 */
const PYTEST_LISTING_END = /^E(?:\s|$)|^\S+:\d+: \w[\w.]*$|^_+ (?=.*[^_\s]).*\S _+$|^=+ .* =+$/;
/** How far above a condensed block's `>` line its traceback's chaining sentence may be: a frame's source listed whole. */
const CHAIN_LISTING_LOOKBACK = 400;

function isHandlerTrace(b: Block, text: ReadonlyMap<number, string>): boolean {
  if (b.kind === 'trace') {
    for (let n = b.start - 1; n >= Math.max(1, b.start - CHAIN_LOOKBACK); n--) {
      const t = text.get(n);
      if (t === undefined) return false;
      if (DURING_HANDLING.test(t)) return true;
      if (DIRECT_CAUSE.test(t)) return raisedInPlumbing(b, text);
      if (t.trim() !== '') break;
    }
  }
  if (!b.lines || !/^>\s/.test(text.get(b.start) ?? '')) return false;
  for (let n = b.start - 1; n >= Math.max(1, b.start - CHAIN_LISTING_LOOKBACK); n--) {
    const t = text.get(n);
    if (t === undefined || PYTEST_LISTING_END.test(t)) return false;
    if (DURING_HANDLING.test(t)) return true;
  }
  return false;
}

/**
 * A later failure's details score this much less when a summary after them names every failure (pytest's
 * `FAILED tests/x.py::test_y - …` list, jest's and mocha's closing list): more than RELATIVE_WINDOW, so a
 * person's "the first failure in full, and the list that names the rest" holds.
 */
const SUMMARIZED_DECAY = 0.6;

/** A test's details: an assertion or a trace, or a block headed by a test's title. */
function isDetail(b: Block, text: ReadonlyMap<number, string>): boolean {
  const head = text.get(b.header) ?? '';
  return b.kind === 'assertion' || b.kind === 'trace' || isTestTitle(head) || PYTEST_TITLE.test(head);
}

/**
 * The details of the second and later failures, when a summary printed after them names the failures
 * (a line of it that is not a table of counts): they score SUMMARIZED_DECAY less. In place.
 */
function namedBySummary(blocks: Block[], text: ReadonlyMap<number, string>): void {
  const summary = [...blocks].sort((a, b) => b.start - a.start).find((b) => b.kind === 'summary');
  if (!summary) return;
  let names = false;
  for (let n = summary.start; n <= summary.end && !names; n++) {
    const t = text.get(n) ?? '';
    names = t.trim() !== '' && !BANNER.test(t) && !COUNT_LINE.test(t) && !isSummaryHeader(t);
  }
  if (!names) return;
  const details = blocks.filter((b) => b.end < summary.start && isDetail(b, text)).sort((a, b) => a.start - b.start);
  if (!details.length) return;
  // The failure quoted in full: the first of the best (a warning's trace or a demoted block before it is not it).
  const top = Math.max(...details.map((b) => b.score));
  const kept = details.find((b) => b.score >= top - LIKE_BAND);
  for (const b of details) {
    if (b === kept) continue;
    b.score -= SUMMARIZED_DECAY;
    b.why = [...b.why, 'a later failure the summary names'];
  }
}

/** Lines between a failure list and the count under it that still make them one summary (Maven's two `[INFO]` spacers). */
const MAX_SUMMARY_GAP = 4;
/** A block cut to fit the line budget keeps at least its header and a few lines, or is left out. */
const MIN_CUT_LINES = 3;
/**
 * A trace with none of the project's own frames is quoted by this many of its first frames: where it
 * broke, not the whole runtime below it.
 */
const MAX_PLUMBING_FRAMES = 3;

/**
 * A trace as a person quotes it. Traces that print the most recent call first (JVM, V8, Rust, Go) reach
 * the project's own frames and then go on through plumbing (isExternalFrame: `at java.base/…Method.invoke`,
 * JUnit's and Gradle's runners, `node:internal`): past the first own frame of each run of frames, the
 * external ones are left out, and above it only the first few are kept (where it broke, not a framework's whole
 * descent to the project's code: Maven's `MojoExecutor`…`Launcher` frames over a plugin's `org.codehaus` ones); a run
 * with no own frame keeps its first few too. Python's tracebacks (most
 * recent call last, `File "…"` frames) are quoted whole, as people paste them.
 */
export function withoutPlumbing(nums: readonly number[], text: ReadonlyMap<number, string>): number[] {
  // npm prints the error it caught with its own prefix on every line (`npm error     at ClientRequest.emit (node:events:524:28)`).
  const t = (n: number) => (text.get(n) ?? '').replace(LOGGER_PREFIX, '');
  const out: number[] = [];
  let i = 0;
  while (i < nums.length) {
    const s = t(nums[i]!);
    if (!isFrame(s) || KEPT_FRAME.test(s)) {
      out.push(nums[i++]!);
      continue;
    }
    // One run of frames: from here to the next line that is not a frame.
    let j = i;
    while (j < nums.length && isFrame(t(nums[j]!)) && !KEPT_FRAME.test(t(nums[j]!))) j++;
    const run = nums.slice(i, j);
    const anyOwn = run.some((n) => !isExternalFrame(t(n)));
    let ownSeen = false;
    let external = 0;
    // A recursion (a `StackOverflowError`'s serializer calling itself) prints the same frames over and over:
    // each frame is quoted once, the first time.
    const seen = new Set<string>();
    for (const n of run) {
      const key = t(n).trim();
      if (seen.has(key)) continue;
      seen.add(key);
      if (!isExternalFrame(t(n))) {
        ownSeen = true;
        out.push(n);
      } else if ((anyOwn && ownSeen) || external++ >= MAX_PLUMBING_FRAMES) continue;
      else out.push(n);
    }
    i = j;
  }
  return out;
}

/**
 * Lines withoutPlumbing leaves to other rules: a cause header, and a Python traceback's frame (`File "x.py",
 * line 3, in f`: most recent call last, read by withoutPythonEntryFrames). Python's faulthandler dump
 * (`Fatal Python error: Segmentation fault`, then `File "x.py", line 3 in f`, no comma, most recent call
 * first) reads like a JVM trace: the project's frame, then pytest's and pluggy's descent to it, plumbing.
 */
const KEPT_FRAME = /^\s*File "[^"]*", line \d+,|^Caused by: /;
/** A Python traceback's opening line; its frames follow, most recent call last. */
const PY_TRACEBACK = /^\s*Traceback \(most recent call last\):\s*$/;
/** A Python traceback's frame: `  File "/usr/lib/python3.11/unittest/main.py", line 101, in __init__`. */
const PY_FRAME = /^(\s*)File "[^"]*", line \d+, in /;
const indentOf = (s: string) => s.length - s.trimStart().length;

/**
 * A Python traceback as a person quotes it: most recent call last, so its first frames are the way in
 * (runpy's and unittest's loader, pytest's and pluggy's hooks, nose's case runner, an installed package's
 * entry point) and the project's own frames come after them. Of the external frames before the first own
 * frame (isExternalFrame: the standard library, site-packages, `<frozen …>`) only the last few are kept, the
 * rest left out with their source lines (unittest's loader under `python -m unittest`: 10 frames, 20 lines);
 * a traceback with no own frame, and the frames after the first own one (a library called by the project,
 * down to where it raised), are kept whole.
 */
export function withoutPythonEntryFrames(nums: readonly number[], text: ReadonlyMap<number, string>): number[] {
  const t = (n: number) => text.get(n) ?? '';
  const drop = new Set<number>();
  for (let i = 0; i < nums.length; i++) {
    if (!PY_TRACEBACK.test(t(nums[i]!))) continue;
    // The frames that follow: each `File "…"` line with the source lines indented under it.
    const frames: { at: number[]; external: boolean }[] = [];
    let j = i + 1;
    for (; j < nums.length; j++) {
      const s = t(nums[j]!);
      const f = PY_FRAME.exec(s);
      if (f) frames.push({ at: [nums[j]!], external: isExternalFrame(s) });
      else if (frames.length && s.trim() && indentOf(s) > indentOf(t(frames[frames.length - 1]!.at[0]!))) frames[frames.length - 1]!.at.push(nums[j]!);
      else break;
    }
    // The last few of them are kept, as a JVM trace keeps the first few above its first own frame: the call
    // that reached the project's code (unittest's `_find_test_path` importing the test module).
    const firstOwn = frames.findIndex((f) => !f.external);
    for (let k = 0; k < firstOwn - MAX_PLUMBING_FRAMES; k++) for (const n of frames[k]!.at) drop.add(n);
    i = j - 1;
  }
  return drop.size ? nums.filter((n) => !drop.has(n)) : [...nums];
}

/** A JVM trace's cause header (`Caused by: org.postgresql.util.PSQLException: …`), Maven's `[ERROR] Caused by:` too. */
const CAUSED_BY = /^(?:\[ERROR\] )?\s*Caused by: /;

/**
 * A chain of causes (Spring's context failure wrapping a bean's, wrapping Hibernate's, wrapping the driver's,
 * wrapping `java.net.ConnectException: Connection refused`) is quoted as people quote it: the exception and
 * its frames, what wrapped what (every `Caused by:` line and its message), and the root cause (the last) with
 * its frames. The frames of the causes in between are the same descent again, each a wrapper's: left out.
 */
export function withoutWrapperFrames(nums: readonly number[], text: ReadonlyMap<number, string>): number[] {
  const t = (n: number) => (text.get(n) ?? '').replace(LOGGER_PREFIX, '');
  const causes = nums.map((n, i) => (CAUSED_BY.test(t(n)) ? i : -1)).filter((i) => i >= 0);
  if (causes.length < 2) return [...nums];
  const drop = new Set<number>();
  for (let c = 0; c + 1 < causes.length; c++) for (let i = causes[c]! + 1; i < causes[c + 1]!; i++) if (isFrame(t(nums[i]!))) drop.add(i);
  return nums.filter((_, i) => !drop.has(i));
}

/** A run of one-line reports longer than this is quoted by its first ones (kotlinc's 40 `e:` lines; a label quotes about 10). */
const MAX_REPORT_RUN = 10;
/** A line that names a place in a file (`src/x.kt:16:74`, `file:///…/A.kt:3:1`, `x.ts(1,2)`): one report of a checker or compiler. */
const LOCATED = /\S\.\w{1,10}(?::\d+(?::\d+)?\b|\(\d+(?:,\d+)?\))/;

/**
 * A compiler's or checker's run of one-line reports (kotlinc's `e: file:…:16:74 Unresolved reference`,
 * 40 of them back to back) is quoted by its first ones: the first errors are the cause, the rest follow
 * from them or repeat them. Frames are not reports (withoutPlumbing reads them).
 */
export function withoutLongReportRun(nums: readonly number[], text: ReadonlyMap<number, string>, max = MAX_REPORT_RUN): number[] {
  const out: number[] = [];
  let run = 0;
  for (const n of nums) {
    const t = (text.get(n) ?? '').replace(LEVEL_PREFIX, '');
    if (LOCATED.test(t) && !isFrame(t)) {
      if (++run > max) continue;
    } else run = 0;
    out.push(n);
  }
  return out;
}

/** A tool's prefix on each line of an error it dumps: `npm error `, `npm ERR! `. */
const LOGGER_PREFIX = /^npm (?:ERR!|error) /;
/**
 * A log level before a line (Maven's `[ERROR] \tat …` frames of an exception it dumps). Only the report-run cut reads
 * past it: reading Maven's frames as plumbing too was tried and dropped (it frees the budget for blocks printed before
 * the failure: dropwizard's passed test's `SEVERE:` trace came first).
 */
const LEVEL_PREFIX = /^\[(?:ERROR|WARN(?:ING)?|INFO|DEBUG)\] /;

/** Rust's panic line, which names where it panicked: `thread 'x' panicked at src/lib.rs:12:9:`. */
const RUST_PANIC_AT = /^thread '.*' (?:\(\d+\) )?panicked at [^\s:]+:\d+:\d+/;
/** The backtrace Rust prints under a panic with RUST_BACKTRACE set, and its numbered frames and `at` lines. */
const RUST_BACKTRACE = /^stack backtrace:$/;
const RUST_BACKTRACE_LINE = /^\s*(?:\d+: |at )|^note: Some details are omitted/;

/**
 * A Rust panic that already names its location (`panicked at src/lib.rs:12:9:`) is quoted by that line and
 * its message; the `stack backtrace:` under it (the runtime's unwinding frames, then the test harness's)
 * is left out, as people leave it out. In place, on the quotable line numbers.
 */
function withoutRustBacktrace(nums: number[], text: ReadonlyMap<number, string>): void {
  const t = (n: number) => text.get(n) ?? '';
  const at = nums.findIndex((n) => RUST_BACKTRACE.test(t(n)));
  if (at < 0 || !nums.slice(0, at).some((n) => RUST_PANIC_AT.test(t(n).trimStart()))) return;
  let end = at + 1;
  while (end < nums.length && RUST_BACKTRACE_LINE.test(t(nums[end]!))) end++;
  nums.splice(at, end - at);
}

/** The runner's own lines are never quoted: the exit code it prints is in every failed log. */
const RUNNER_NOISE = /^##\[error\]Process completed with exit code \d+\.?$|^##\[(?:group|endgroup)\]|^::(?:group|endgroup)::/;

/**
 * Surefire's summary of a test it ran more than once lists every run's verdict under the test's name
 * (`[ERROR] com.x.FooTest.null` then `[INFO]   Run 1: PASS` … `[ERROR]   Run 7: FooTest expected …`): the
 * runs that passed are not the failure, the run that failed is.
 */
const PASSED_RERUN = /^\[INFO\]\s+Run \d+: PASS$/;

/**
 * A build script's directives to cargo, which cargo echoes under `--- stdout` when the script fails
 * (`cargo:rerun-if-changed=build.rs`, `cargo:rustc-env=X=1`, `cargo::rustc-check-cfg=…`): instructions to
 * the build, not what went wrong; the script's own messages around them are.
 */
const CARGO_DIRECTIVE = /^\s*cargo::?[A-Za-z_][\w-]*=/;

/**
 * pytest's session header, printed by every run before it collects (`=== test session starts ===`,
 * `platform linux -- Python 3.9.7, pytest-6.2.5, …`, `rootdir:`, `plugins:`, `cachedir:`, `configfile:`): the
 * run's settings, the same in a passing run, never what failed. Not quoted inside a block that reaches it
 * (a `collected 0 items` / `no tests ran` run's block starts at the banner).
 */
const PYTEST_SESSION_HEADER = /^=+ test session starts =+$|^platform \S+ -- Python \d|^(?:rootdir|plugins|cachedir|configfile|testpaths|cacheprovider):/;

/**
 * A rule, or a section title between rules: `==== ERRORS ====`, `-----`, vitest's `⎯⎯⎯ Failed Tests 2 ⎯⎯⎯`. A rule
 * drawn with box-drawing characters that a Windows console re-read in its code page (`gh run view` saved through
 * PowerShell: vitest's `⎯` as `ÔÄ»`, `─` as `ΓöÇ`) is a rule too: one group of up to three non-ASCII symbols repeated.
 */
const RULE = (g: number): string => `(?:[-=_~*#═─━⎯]{4,}|([^\\x00-\\x7f\\s\\w]{1,3})\\${g}{3,})`;
const BANNER = new RegExp(String.raw`^\s*(?:${RULE(1)}\s*(?:[\w ]{0,40}?\s*${RULE(2)})?)\s*$`);

export interface Selection {
  /** The chosen blocks, in log order. */
  blocks: Block[];
  /** Their quotable lines (no blank lines, no runner noise), in log order, each with its block's index. */
  lines: (EvidenceLine & { block: number })[];
}

/**
 * Overlapping or adjacent blocks are one block: the best one's header and kind, everyone's reasons. A block
 * that starts right after another at a test's title (pytest prints its `___ ERROR collecting x ___` sections
 * back to back) is the next failure, not more of the last one: it stays its own block.
 */
export function mergeBlocks(blocks: readonly Block[], text?: ReadonlyMap<number, string>): Block[] {
  // At one start, a block whose end its tool said comes first, so that what grows past it is clamped to it.
  const sorted = [...blocks].sort((a, b) => a.start - b.start || Number(b.closed === true) - Number(a.closed === true) || b.end - a.end);
  const out: Block[] = [];
  // pytest's section titles (`___ test_x ___`, `___ ERROR collecting x ___`) each open one failure. Other
  // runners' titles are left to merge: bats' `not ok 1`/`not ok 2`, isort's `ERROR:` lines are quoted as one run.
  const titleShape = (n: number): string | undefined => {
    const t = text?.get(n);
    return t !== undefined && PYTEST_TITLE.test(t) ? '_' : undefined;
  };
  const opensTest = (b: Block, cur: Block) => {
    const shape = titleShape(b.start);
    return shape !== undefined && (shape === titleShape(cur.start) || shape === titleShape(cur.header));
  };
  for (const b of sorted) {
    const cur = out[out.length - 1];
    const touching = cur !== undefined && b.start === cur.end + 1;
    // A summary printed right after the last failure (pytest's) is its own block: it names every failure.
    if (!cur || b.start > cur.end + 1 || (touching && ((b.kind === 'summary') !== (cur.kind === 'summary') || opensTest(b, cur)))) {
      out.push({ ...b, why: [...b.why] });
      continue;
    }
    const best = b.score > cur.score ? b : cur;
    // A block whose end its tool said (Signal.blockEnd) takes what the generic finder saw inside it, not past it.
    const closed = cur.closed && b.source !== 'matcher';
    out[out.length - 1] = {
      ...(closed ? { closed } : {}),
      start: cur.start,
      end: closed ? cur.end : Math.max(cur.end, b.end),
      header: best.header,
      kind: best.kind,
      score: Math.max(cur.score, b.score) + 0.05,
      why: [...new Set([...cur.why, ...b.why])],
      source: cur.source === 'matcher' || b.source === 'matcher' ? 'matcher' : best.source,
    };
  }
  return text ? out.flatMap((b) => splitAtSiblingTitles(b, titleShape)) : out;
}

/**
 * A merged block that runs across a second title of the shape of its first (blocks of two of pytest's
 * back-to-back `___ ERROR collecting x ___` sections overlap by a line) is cut there: one piece per failure,
 * each headed by its title, so that the first failure does not take the whole line budget.
 */
function splitAtSiblingTitles(b: Block, titleShape: (n: number) => string | undefined): Block[] {
  let shape: string | undefined;
  const cuts: number[] = [];
  for (let n = b.start; n <= b.end; n++) {
    const s = titleShape(n);
    if (s === undefined) continue;
    if (shape === undefined) shape = s;
    else if (s === shape) cuts.push(n);
  }
  if (!cuts.length) return [b];
  const starts = [b.start, ...cuts];
  return starts.map((start, i) => ({
    ...b,
    start,
    end: i + 1 < starts.length ? starts[i + 1]! - 1 : b.end,
    header: i === 0 ? (b.header < cuts[0]! ? b.header : b.start) : start,
    why: [...b.why],
  }));
}

/**
 * The best blocks within the bound (MAX_EVIDENCE_LINES quotable lines, MAX_EVIDENCE_BLOCKS blocks), in
 * log order: merged, the weak and the far-below-best left out, the best first into the budget, a block
 * that does not fit cut to its head.
 */
export function selectBlocks(proposed: readonly Block[], lines: readonly LogLine[], seenLines?: ReadonlySet<number>): Selection {
  const text = new Map(lines.map((l) => [l.n, l.text] as const));
  const position = new Map(lines.map((l, i) => [l.n, i] as const));
  const quotable = (b: Block): number[] => {
    const out: number[] = [];
    for (const n of b.lines ?? range(b.start, b.end)) {
      const t = text.get(n);
      // The runner's and build tool's echo of the exit (`> There were failing tests`) is not quoted inside a
      // block, nor a blank line (Maven's is its log level alone, `[INFO]`), nor a build script's directive.
      if (t !== undefined && !isEmptyLine(t) && !RUNNER_NOISE.test(t) && !PASSED_RERUN.test(t) && !PYTEST_SESSION_HEADER.test(t) && (n === b.header || (!isConsequence(t) && !CARGO_DIRECTIVE.test(t)))) out.push(n);
    }
    // A banner or rule that opens the block (pytest's `==== FAILURES ====`) frames the failure, it is not
    // it; a block that is nothing but a banner says nothing.
    // pytest's title of a short test name (`____ test_x ____`) has a banner's shape; kept where the
    // condensed block put it at its head.
    const title = b.lines && PYTEST_TITLE.test(text.get(b.header) ?? '') ? b.header : undefined;
    while (out.length && out[0] !== title && BANNER.test(text.get(out[0]!)!)) out.shift();
    // The run's tally printed just above the failure it counts (cargo-nextest's `Summary [ 113s] 5457 tests
    // run: 5456 passed, 1 failed`, vitest's and jest's `Test Files  1 failed | 3 passed (4)` / `Tests` /
    // `Start at` / `Duration` rows when stdout and stderr interleave, mocha's `10 passing (2s)`) is the
    // run's report card, not the failure: a block whose header is below it starts at what follows.
    while (out.length > 1 && out[0] !== b.header && isRunTally(text.get(out[0]!)!)) out.shift();
    // A package manager's progress just above its error (`go: finding module for package x` over `go: … no
    // matching versions`) says what it was doing, not what went wrong: a block starts at what follows it.
    while (out.length > 1 && out[0] !== b.header && isProgressLine(text.get(out[0]!)!)) out.shift();
    // Testing Library's dump of the page it searched, between the error and the test's frames, is not the failure.
    const undumped = withoutDomDump(out, lines, position);
    out.length = 0;
    out.push(...undumped);
    withoutRustBacktrace(out, text);
    const trimmed = withoutLongReportRun(withoutPlumbing(withoutPythonEntryFrames(withoutWrapperFrames(out, text), text), text), text);
    out.length = 0;
    out.push(...trimmed);
    // Lines the passing run of the job printed too are not causes (the passing-log diff): a block made
    // only of them is dropped, and its seen edges are trimmed. Seen lines inside a new block stay: a
    // caret or a `symbol:` line masks to a template the passing run printed under another message.
    if (seenLines) {
      while (out.length && seenLines.has(out[0]!)) out.shift();
      while (out.length && seenLines.has(out[out.length - 1]!)) out.pop();
    }
    return out;
  };
  const condensed = mergeBlocks(proposed, text)
    .filter((b) => b.score >= MIN_BLOCK_SCORE)
    .map((b) => withoutRepeatedCauses(withoutRepeatedTracebacks(withoutRepeatedErrors(condenseBlock(b, text), text), text), text));
  const restated = restatedAnnotations(condensed, lines, text);
  const merged = withoutSurvivedBuild(condensed, text).map((b) => {
    const demoted = [
      isWarningTrace(b, text) && "a warning's trace",
      isHandlerTrace(b, text) && 'raised while handling the exception above',
      (isPassedTrace(b, text) || isPassedGradleTestOutput(b, text)) && 'printed by a test the runner then passed',
      isCapturedOutput(b, text) && "a test's captured output (under pytest's `Captured … ----` banner, vitest's `stderr | …` header)",
      isSurvivedAptError(b, text) && 'an apt error the script went on past (apt ran again below it)',
      (isExitRestatingTrace(b, text) || isRestatedTestVerdict(b, text)) && RESTATING_WHY,
      restated.has(b) && 'an annotation restating a failure the step printed',
    ].filter((why): why is string => !!why);
    return demoted.length ? { ...b, score: b.score - DEMOTION * demoted.length, why: [...b.why, ...demoted] } : b;
  });
  if (!merged.length) return { blocks: [], lines: [] };
  firstOfAlike(merged, text, SAME_MESSAGE_DECAY);
  const best = Math.max(...merged.map((b) => b.score));
  // Decay from the best down (the earlier first among equals), so that the weaker and later of like blocks give way.
  const likeSoFar = new Map<string, number>();
  const messages = new Set<string>();
  const band = (b: Block) => Math.round(b.score / LIKE_BAND);
  const decayed = [...merged].sort((a, b) => band(b) - band(a) || a.start - b.start).map((b) => {
    const repeat = b.why.includes(ALIKE_WHY);
    // Repeated failures are assertions and traces (a test per block); the generic finder's other blocks are
    // each a different line of the log already ranked by rarity, so they do not decay.
    if (!repeat && b.source === 'generic' && (b.kind === 'error' || b.kind === 'diagnostic')) return b;
    const k = `${b.source}:${b.kind}`;
    const seen = likeSoFar.get(k) ?? 0;
    likeSoFar.set(k, seen + 1);
    // Already scored down as alike an earlier block (firstOfAlike): no second decay for its message.
    if (repeat) return { ...b, score: b.score - SAME_KIND_DECAY * seen };
    const msg = messageKey(b, text);
    const again = msg !== undefined && messages.has(msg);
    if (msg !== undefined) messages.add(msg);
    return { ...b, score: b.score - SAME_KIND_DECAY * seen - (again ? SAME_MESSAGE_DECAY : 0) };
  });
  namedBySummary(decayed, text);
  // When a toolchain recognised the failure, the generic finder's weaker blocks printed before it are what
  // the step survived on the way (a logged exception, an error-looking line in the setup): left out.
  const cause = decayed.filter((b) => b.source === 'matcher').sort((a, b) => b.score - a.score)[0];
  const bestStart = firstStart(decayed, best);
  // A wrapper's error that restates a child's exit is quoted only when nothing else was found: the child's
  // own report is the failure.
  const restating = (b: Block) => b.why.includes(RESTATING_WHY);
  const ranked = decayed
    .filter((b) => !restating(b) || decayed.every(restating))
    .filter((b) => !(cause && b.source === 'generic' && b.kind !== 'summary' && b.end < cause.start && b.score < cause.score - EARLIER_GENERIC_MARGIN && !missingModule(b, text)))
    .filter((b) => b.score >= best - RELATIVE_WINDOW || (b.score >= MIN_BLOCK_SCORE && b.start < bestStart && missingModule(b, text)))
    .sort((a, b) => b.score - a.score || a.start - b.start);
  const chosen: { block: Block; lines: number[] }[] = [];
  // The summary quoted beside the failures (below) is what a reader pastes with the first of them: its
  // lines are kept free while the detail blocks fill the budget, so a long second failure cannot squeeze it out.
  const lastSummary = [...merged].reverse().find((b) => b.kind === 'summary');
  const reserve = lastSummary && !ranked.some((b) => b.start === lastSummary.start && b.end === lastSummary.end) ? Math.min(quotable(lastSummary).length, MAX_SUMMARY_LINES) : 0;
  let budget = MAX_EVIDENCE_LINES - reserve;
  // The same failure printed again (a retried test, a summary restating it) is quoted once, at its first.
  const seen = new Set<string>();
  // The runners whose first failure is quoted whole, by the mark their failure titles open with.
  const wholeRunners = new Set<string>();
  for (const b of ranked) {
    if (chosen.length >= MAX_EVIDENCE_BLOCKS || budget <= 0) break;
    const mark = titleMark(text.get(b.header));
    if (mark !== undefined && wholeRunners.has(mark)) continue;
    let q = quotable(b);
    if (!q.length) continue;
    // Two blocks condensed to the same failure (condenseBlock reaches up to its title): quoted once.
    if (chosen.some((c) => q[0]! <= c.block.end && c.block.start <= q[q.length - 1]!)) continue;
    const key = q.slice(0, 2).map((n) => lineKey(text.get(n) ?? '')).join(',');
    if (seen.has(key)) continue;
    seen.add(key);
    if (q.length > budget) {
      if (budget < MIN_CUT_LINES && chosen.length) continue;
      q = q.slice(0, budget);
    } else if (mark !== undefined && q.length > 1) wholeRunners.add(mark);
    budget -= q.length;
    chosen.push({ block: { ...b, start: q[0]!, end: q[q.length - 1]!, header: b.header < q[0]! ? q[0]! : b.header }, lines: q });
  }
  // The step's failure summary (`FAILED (errors=1)`, `3 failed`) is what a reader pastes beside the first
  // failure: kept when it fits, whatever its score against the detail blocks.
  const summary = [...merged].reverse().find((b) => b.kind === 'summary' && !chosen.some((c) => c.block.start <= b.end && b.start <= c.block.end));
  budget += reserve;
  if (summary && chosen.length < MAX_EVIDENCE_BLOCKS) {
    const q = quotable(summary).slice(0, Math.min(budget, MAX_SUMMARY_LINES));
    // Beside detail blocks, a summary is quoted for the failures it names; one that only counts them is not.
    if (q.length && (!chosen.length || q.some((n) => !COUNT_LINE.test(text.get(n) ?? '')))) chosen.push({ block: { ...summary, end: q[q.length - 1]! }, lines: q });
    // The list of failures printed just above that count (surefire's `[ERROR] Errors:` entries over its
    // `Tests run: 33, …, Errors: 1`) is one summary with it, though the blank line between made two blocks.
    const above = [...merged].reverse().find((b) => b.kind === 'summary' && b.end < summary.start && summary.start - b.end <= MAX_SUMMARY_GAP);
    const left = budget - q.length;
    if (q.length && above && chosen.length < MAX_EVIDENCE_BLOCKS && !chosen.some((c) => c.block.start <= above.end && above.start <= c.block.end)) {
      const qa = quotable(above).slice(0, Math.max(0, Math.min(left, MAX_SUMMARY_LINES)));
      if (qa.length) chosen.push({ block: { ...above, end: qa[qa.length - 1]! }, lines: qa });
    }
  }
  chosen.sort((a, b) => a.block.start - b.block.start);
  return {
    blocks: chosen.map((c) => c.block),
    lines: chosen.flatMap((c, i) => c.lines.map((n) => ({ line: n, text: text.get(n) ?? '', block: i }))),
  };
}

/**
 * The titles under which jest and vitest print each failure in full, diff, code frame and trace (`● Suite ›
 * test`, ` FAIL  src/x.test.ts > Suite > test`): a reader pastes the first and the runner's count. Runners
 * that print a numbered list of short failures (mocha's and minitest's `1)`, ExUnit's, bats' `not ok`) are
 * quoted whole, as their labels quote them: tried with every runner's title, corpus F1 fell (0.838 → 0.832).
 */
const FULL_FAILURE_TITLE = /^\s*(?:●|FAIL)\s/;

/**
 * The mark of a jest or vitest failure's title (`●`, `FAIL`), or undefined for any other line. Once the
 * runner's first failure is quoted whole, its later ones are more of the same and are left out.
 */
export function titleMark(header: string | undefined): string | undefined {
  if (header === undefined || header.length >= 2000 || !FULL_FAILURE_TITLE.test(header)) return undefined;
  // One mark for both: jest prints a failure in full under `●` and lists each failed file's tests under
  // `FAIL file` (its `✕` and `✓` lines); once a failure is quoted whole (a title with what it says, not a
  // lone `FAIL file` line), a later file's listing is more of the same, as a later `●` is.
  return 'jest-or-vitest';
}

/**
 * A module that could not be loaded, printed before the recognised failure: the step did not go on past it,
 * the failure after it is what the missing module did (prove's `t/x.t .. Can't locate …` above the test's
 * `Failed test`), so it stays beside that failure whatever its score.
 */
function missingModule(b: Block, text: ReadonlyMap<number, string>): boolean {
  if (b.kind === 'summary') return false;
  for (let n = b.start; n <= b.end; n++) if (MODULE_NOT_LOADED.test(text.get(n) ?? '')) return true;
  return false;
}
/** The first line of the best-scoring block: what the missing-module rule must come before. */
function firstStart(blocks: readonly Block[], best: number): number {
  return Math.min(...blocks.filter((b) => b.score >= best - RELATIVE_WINDOW).map((b) => b.start));
}
