import type { Block } from './block.js';
import { MAX_CAPTURED_LOOKBACK } from '../limits.js';

/**
 * pytest's banner over what a failing test printed while it ran: `---- Captured stderr call ----`,
 * `---- Captured log setup ----`. What follows is the test's own logging, not pytest's report of the failure.
 */
const CAPTURED_BANNER = /^-{3,} Captured (?:stdout|stderr|log)(?: (?:call|setup|teardown))? -{3,}$/;
/**
 * nose's banner over the same (`-------------------- >> begin captured logging << --------------------`, `>> begin
 * captured stdout <<`), closed by its `>> end captured … <<` banner.
 */
const NOSE_CAPTURED_BEGIN = /^-{3,} >> begin captured (?:stdout|stderr|logging) << -{3,}$/;
const NOSE_CAPTURED_END = /^-{3,} >> end captured (?:stdout|stderr|logging) << -{3,}$/;
/** What ends a captured section: the next test's title (`____ test_x ____`), a session banner (`==== … ====`), nose's end banner. */
const SECTION_END = /^_+ (?=.*[^_\s]).*\S _+$|^=+ .* =+$/;

/**
 * Whether a line opens a test's captured output (pytest's or nose's banner): what the test printed while it ran,
 * which no label across the corpus quotes (30 such banners in the study half and the Travis logs, none quoted).
 * A block growing down from the failure's report stops there.
 */
export function isCapturedBanner(text: string): boolean {
  const t = text.trim();
  return CAPTURED_BANNER.test(t) || NOSE_CAPTURED_BEGIN.test(t);
}

/**
 * A block that is a failing test's captured output (a traceback the code under test logged and went on
 * past: scrapy's `ERROR: Error caught on signal handler` over `ImportError: No module named parse`, printed
 * under `---- Captured stderr call ----`): pytest's report of that test is its `E` lines above the banner,
 * so the captured lines are context, not the failure a person quotes first.
 */
/**
 * vitest's header over what a test wrote to the console while it ran: `stderr | tests/x.test.ts > Suite >
 * test`, `stdout | …` (bun's and vitest's reporters print each test's console output under such a header,
 * passing tests' included). The runner's report of a failure is its ` FAIL ` entry; the section ends at the
 * blank line the runner prints after it.
 */
const CONSOLE_HEADER = /^(?:stdout|stderr) \| \S+.* > \S/;

/**
 * Gradle's header over what a test wrote while it ran (`testLogging { showStandardStreams = true }`, or `--info`):
 * `Issue2068 > shouldn't hang on exception in resolveFieldWithInfo STANDARD_ERROR`, the output indented under it.
 * Passing tests' output included (a logged `ERROR … threw exception` and its trace in a test of error handling);
 * the runner's report of a failure is its `X > y FAILED` entry.
 */
const GRADLE_STREAM_HEADER = /^\S.* > .+ STANDARD_(?:OUT|ERROR)$/;

export function isCapturedOutput(b: Block, text: ReadonlyMap<number, string>): boolean {
  return underPytestBanner(b, text) || underConsoleHeader(b, text) || underGradleStreamHeader(b, text);
}

/** The block's first line is Gradle's stream header or inside its section: indented lines (and blank ones) below it. */
function underGradleStreamHeader(b: Block, text: ReadonlyMap<number, string>): boolean {
  return gradleStreamTest(b, text) !== undefined;
}

/** The test (`Class > name`) whose Gradle stream section the block starts in, if it does. */
export function gradleStreamTest(b: Block, text: ReadonlyMap<number, string>): string | undefined {
  for (let n = Math.min(b.start, b.header); n >= b.start - MAX_CAPTURED_LOOKBACK; n--) {
    const t = text.get(n);
    if (t === undefined) return undefined;
    const h = GRADLE_STREAM_HEADER.exec(t.trimEnd());
    if (h) return t.trimEnd().replace(/ STANDARD_(?:OUT|ERROR)$/, '');
    if (t.trim() !== '' && !/^\s/.test(t)) return undefined;
  }
  return undefined;
}

/** Gradle's verdict on a failed test: `Class > name FAILED`. */
const GRADLE_TEST_FAILED = /^(\S.* > .+) FAILED$/;
const failedGradleTests = new WeakMap<ReadonlyMap<number, string>, Set<string>>();

/**
 * A Gradle test's stream section (above) of a test Gradle never reported `FAILED`: the test passed, and what it
 * logged (an exception it provoked on purpose) was survived. Read once per log.
 */
export function isPassedGradleTestOutput(b: Block, text: ReadonlyMap<number, string>): boolean {
  const test = gradleStreamTest(b, text);
  if (test === undefined) return false;
  let failed = failedGradleTests.get(text);
  if (!failed) {
    failed = new Set();
    for (const t of text.values()) {
      if (t.length > 1000 || !t.endsWith('FAILED')) continue;
      const m = GRADLE_TEST_FAILED.exec(t.trimEnd());
      if (m) failed.add(m[1]!);
    }
    failedGradleTests.set(text, failed);
  }
  return !failed.has(test);
}

/** The block's first line is inside a test's console section: its header above with no blank line between. */
function underConsoleHeader(b: Block, text: ReadonlyMap<number, string>): boolean {
  for (let n = Math.min(b.start, b.header); n >= b.start - MAX_CAPTURED_LOOKBACK; n--) {
    const t = text.get(n);
    if (t === undefined || t.trim() === '') return false;
    if (CONSOLE_HEADER.test(t)) return true;
  }
  return false;
}

function underPytestBanner(b: Block, text: ReadonlyMap<number, string>): boolean {
  for (let n = b.start - 1; n >= b.start - MAX_CAPTURED_LOOKBACK; n--) {
    const t = text.get(n);
    if (t === undefined) return false;
    if (isCapturedBanner(t)) return true;
    if (SECTION_END.test(t) || NOSE_CAPTURED_END.test(t.trim())) return false;
  }
  return false;
}
