import { antTaskLine } from '../extract/task-prefix.js';
import type { LogLine } from '../types.js';
import {
  errorScore,
  FAULT_WORDS,
  indentOf,
  isAssertionLine,
  isConsequence,
  isExternalFrame,
  isFrame,
  isLocatedDiagnostic,
  isLocationOnly,
  isShellTrace,
  isCommandEcho,
  isSnippet,
  isStepMarker,
  isSummaryHeader,
  isTestTitle,
  PASSING,
} from './vocabulary.js';
import { MAX_BLOCK_LINES } from '../limits.js';
import { isPlaceAlone, isReportRow, leadingLocation, locationsIn } from './read-locations.js';
import { unifiedDiffEnd } from './unified-diff.js';
import { isCapturedBanner } from './captured-output.js';

/**
 * A tool's error message that ends in a colon (`configure: error: Package requirements (gl) were not met:`):
 * a message, not a section's heading (`failures:`, `Error:` alone), so what it announces is its own.
 */
const ANNOUNCING_ERROR = /\berror: \S.*:\s*$/i;
/** `go test`'s line for a package that failed: `FAIL`, a tab, the import path, a tab, the time (or `[build failed]`). */
const GO_PACKAGE_VERDICT = /^FAIL\t\S+\t\S/;

/** How far above a detail line its header (a test's title, the error it explains) may sit. */
const MAX_HEADER_LOOKBACK = 4;

/** git's verdict on a transfer, and the server's lines it passes on (`remote: …`, not `remote: Counting objects`'s progress). */
const GIT_VERDICT = /^(?:fatal|error): /;
const GIT_REMOTE = /^remote: \S.*(?:[Pp]ermission|denied|[Ff]orbidden|not (?:allowed|authorized|found)|TF\d{6}|[Ee]rror|rejected|[Ii]nvalid)/;

/** unittest's rule between a test's title (and docstring) and its traceback; its `=====` goes above the title. */
const DASHES = /^\s*-{10,}\s*$/;
/** A rule of dashes or equals signs between a test's title and its details. */
const SEPARATOR = /^\s*[-=_~*]{10,}\s*$/;
/**
 * A section's banner, a title between rules (pytest's `==== short test summary info ====`): what follows
 * is a new section, so a block under it does not reach up past it into the section before.
 */
const TITLED_RULE = /^\s*[-=]{3,} \S.*\S [-=]{3,}\s*$/;

/**
 * An empty line, or one that is empty but for its logger's level tag: Maven prints its blank lines as
 * `[INFO] ` (and sbt as `[info] `), so a block under `[ERROR] Failures:` ends there as at a blank line.
 * Ant's task column alone (`    [junit] `) is the blank line of the tool it relays, read the same way.
 */
export const isEmptyLine = (text: string): boolean => text.trim() === '' || LEVEL_ONLY.test(text) || antTaskLine(text)?.rest.trim() === '';
/** A logger's level tag (`[INFO]`, Maven's and many others'). */
const LEVEL = String.raw`\[(?:INFO|ERROR|WARN(?:ING)?|DEBUG|info|error|warn|debug)\]`;
const LEVEL_ONLY = new RegExp(String.raw`^\s*${LEVEL}\s*$`);
const blank = (l: LogLine | undefined): boolean => !l || isEmptyLine(l.text);
/** A rule of dashes or equals signs alone, or under a logger's level tag (Maven's `[INFO] ------`). */
const isRule = (text: string): boolean => SEPARATOR.test(text.replace(LEVEL_TAG, ''));
const LEVEL_TAG = new RegExp(String.raw`^\s*${LEVEL} `);

/** A line that belongs to the block above it whatever its indent: a frame, a snippet, an assertion's diff, a bare location. */
export function isContinuation(text: string): boolean {
  return isFrame(text) || isSnippet(text) || isAssertionLine(text) || isLocationOnly(text) || TAP_DIAGNOSTIC.test(text) || CAUSE_HEADING.test(text);
}

/**
 * anyhow's (cargo's, rustup's) cause chain: `error: …`, a blank line, `Caused by:` alone, then each cause
 * indented under it. The heading is the error's own, not the start of another block.
 */
const CAUSE_HEADING = /^Caused by:\s*$/;

/** TAP's and Test::More's diagnostics under a failed test: `#   at t/a.t line 8.`, `#     expected: '80'`. */
const TAP_DIAGNOSTIC = /^\s*#\s{2,}\S/;

/**
 * The index of the header a detail line belongs to: walking up over continuation lines and lines
 * indented deeper than the one below, to the first line that is less indented, a test's title, or an
 * error (`Failed asserting that …` belongs to `1) FooTest::testBar` above it).
 */
export function headerAbove(lines: readonly LogLine[], i: number): number {
  // `file:line: error: …` heads its own block: the caret and source above it close the diagnostic before.
  if (isLocatedDiagnostic(lines[i]!.text)) return i;
  // `go test`'s verdict on a package (`FAIL\tgithub.com/a/b\t0.008s`) is a line of its own: the goroutine
  // dump printed above it is the crash's, not the verdict's.
  if (GO_PACKAGE_VERDICT.test(lines[i]!.text)) return i;
  // git prints the server's own reason as `remote: …` lines just before its `fatal:` / `error:` (a refused
  // push: `remote: TF401027: You need the Git 'GenericContribute' permission …`): they head the same report.
  if (GIT_VERDICT.test(lines[i]!.text)) {
    let j = i;
    while (j > 0 && i - j < MAX_HEADER_LOOKBACK && GIT_REMOTE.test(lines[j - 1]!.text)) j--;
    if (j < i) return j;
  }
  const trail = contextTrailAbove(lines, i);
  if (trail !== undefined) return trail;
  const indent = indentOf(lines[i]!.text);
  const diffBelow = isAssertionLine(lines[i]!.text);
  let top = i;
  let plain = 0;
  let excerpt = -1;
  for (let j = i - 1; j >= 0 && i - j <= MAX_BLOCK_LINES; j--) {
    const l = lines[j]!;
    if (blank(l)) {
      // `● suite › test`, a blank line, then the assertion: the title still heads it.
      const above = lines[j - 1];
      if (above && !blank(above) && isTestTitle(above.text) && indentOf(above.text) < indent) return j - 1;
      // A place alone on its line heads its report's paragraphs below it (Redocly's `[2] a.yaml:84:7 at #/paths/…`
      // over `The operation does not define …`, its excerpt and `Error was generated by the … rule.`)
      if (top === i) {
        const place = placeReportStart(lines, i);
        if (place !== undefined) return place;
      }
      break;
    }
    const t = l.text;
    if (isStepMarker(t) || isConsequence(t) || isSummaryHeader(t) || TITLED_RULE.test(t)) break;
    // `+ az login …` above `ERROR: No subscriptions found`: the shell's trace of the command, not a diff line;
    // yarn's `$ jest --coverage` above jest's ` FAIL  test/x.js`: the command's echo.
    if (!diffBelow && (isShellTrace(t) || isCommandEcho(t))) break;
    // unittest's and nose's `ERROR: test_x`, a rule of dashes, then the traceback: the rule is transparent.
    if (SEPARATOR.test(t)) {
      const above = lines[j - 1];
      if (above && isTestTitle(above.text)) return j - 1;
      // unittest prints the test's docstring (its first line) between the title and the rule.
      const title = lines[j - 2];
      if (DASHES.test(t) && above && title && !blank(above) && isTestTitle(title.text) && !isTestTitle(above.text)) return j - 2;
      break;
    }
    if (isTestTitle(t) || (indentOf(t) < indent && !isContinuation(t))) return j;
    // A numbered failure title (`  2) Reservation …`) under the frames of the failure before it: those frames
    // end that failure, they do not lead into this one.
    if (j === i - 1 && isContinuation(t) && NUMBERED.test(lines[i]!.text)) return i;
    // Frames or diff lines above: the same block; keep walking up to its header. (A deeper-indented
    // line above is the end of the block before, such as cargo's `   Compiling x` above its error.)
    if (isContinuation(t)) {
      top = j;
      continue;
    }
    // A source line quoted over a caret (fish's `    set -l w ${x}` over `    ^`) is the caret's; the report
    // just above such an excerpt, opening with its place (`a.fish (line 48): …`), is what they illustrate.
    if (CARET_ONLY.test(lines[j + 1]!.text) && j + 1 <= i) {
      top = j;
      excerpt = j;
      continue;
    }
    if (excerpt === j + 1 && leadingLocation(t)) return j;
    // A report opening with its place and naming a fault with no severity word (BIND's `dns_rdata_fromtext:
    // bind/db.local:15: near 'x': not a valid number`) over the tool's line that it failed: the place heads it.
    if (plain < MAX_HEADER_LOOKBACK && errorScore(t) < 0.5 && leadingLocation(t) && FAULT_WORDS.test(t)) return j;
    // A report that only says where and that it failed (lighttpd's `source: a.conf line: 59 pos: 0 parser failed
    // somehow near here`) under the line that says what is wrong (`Duplicate config variable …: index-file.names`):
    // that line is the report's message, printed first.
    const namesFault = FAULT_WORDS.test(t.replace(PATHISH_WORD, ' ')) && errorScore(t) < 0.5 && indentOf(t) === 0;
    if (j === i - 1 && namesFault && vagueReport(lines[i]!.text) && locationsIn(t).length === 0 && !isShellTrace(t)) return j;
    // The same report with its detail between (GLPK's `a.mod:38: I not defined`, its `Context: …` line, then
    // `MathProg model processing error`): the place still heads the block.
    if (errorScore(t) < 0.5) {
      const report = placedFaultAbove(lines, j, MAX_HEADER_LOOKBACK - plain);
      if (report !== undefined) return report;
    }
    if (++plain > MAX_HEADER_LOOKBACK || errorScore(t) < 0.5) break;
    top = j;
  }
  return top;
}

/**
 * A context line that says what the tool was doing, and where, when the error below it struck, ending in a
 * colon: Ledger's `While parsing file "x.dat", line 42:` and `While balancing transaction from "x.dat", lines
 * 38-42:` over the excerpt and the amounts, then `Error: Transaction does not balance`.
 */
const CONTEXT_TRAIL = /^(?:While|When|During) [a-z]+ing\b.*:\s*$/;
/**
 * The first of the context lines heading the error line `i` (ErrorScore ≥ 0.5), over the non-blank lines
 * between them: the trail names the place the error's own line does not.
 */
function contextTrailAbove(lines: readonly LogLine[], i: number): number | undefined {
  if (errorScore(lines[i]!.text) < 0.5) return undefined;
  let top: number | undefined;
  for (let j = i - 1; j >= 0 && i - j < MAX_BLOCK_LINES; j--) {
    const t = lines[j]!.text;
    if (blank(lines[j]) || isStepMarker(t) || isConsequence(t) || errorScore(t) >= 0.5) break;
    if (CONTEXT_TRAIL.test(t) && locationsIn(t).length > 0) top = j;
    else if (top !== undefined) break;
  }
  return top;
}

/** A report that says where it failed but not what: it names a place and no fault word. */
function vagueReport(text: string): boolean {
  return locationsIn(text).length > 0 && !FAULT_WORDS.test(text);
}
/** A path or a hyphenated name, whose words (`x86_64-unknown-linux-gnu`) are no report's. */
const PATHISH_WORD = /\S*(?:\/|\w-\w)\S*/g;

/**
 * A report opening with its place and naming a fault with no severity word, at most `span` lines above
 * line `from` (which is not one), over lines that are neither blank, nor a step marker, nor another report.
 */
function placedFaultAbove(lines: readonly LogLine[], from: number, span: number): number | undefined {
  for (let k = from - 1; k >= 0 && from - k <= span; k--) {
    const t = lines[k]!.text;
    // a skipped test's reason (pytest's `SKIPPED [1] a.py:132: Advance is not supported by …`) is no failure
    if (blank(lines[k]) || isStepMarker(t) || isConsequence(t) || errorScore(t) >= 0.5 || PASSING.test(t)) return undefined;
    if (leadingLocation(t)) return FAULT_WORDS.test(t) ? k : undefined;
  }
  return undefined;
}

/** A report's opening: a marker of punctuation, then the test's name (`==== word-4.2`, `*** t/a.t`). */
const OPENING = /^\s*([=*#>~-]{2,20}\s+[\w.:/-]*\w[\w.:/-]*)\s/;
/**
 * A report some runners close by restating its opening (tcltest's `==== word-4.2 … FAILED` … `==== word-4.2
 * FAILED`, with the test's body, result and expected value between, blank lines included): the block runs
 * to that line. The restatement must say failure and be no longer than the opening line, so the next
 * test's title (jest's `● Suite › other test`) is not taken for it. The header itself when there is none.
 */
function closingRestatement(lines: readonly LogLine[], header: number): number {
  const head = lines[header]!.text;
  const open = OPENING.exec(head);
  if (!open || errorScore(head) < 0.5) return header;
  for (let j = header + 1; j < lines.length && j - header < MAX_BLOCK_LINES; j++) {
    const t = lines[j]!.text;
    if (isStepMarker(t) || isConsequence(t)) break;
    if (t.length <= head.length && t.trimStart().startsWith(open[1]!.trimStart()) && errorScore(t) >= 0.5) return j;
  }
  return header;
}

/** A caret alone under a quoted source line: `      ^`, `   ^~~~`. */
/** A runner's numbered failure title: `1) TestController …` (RSpec, PHPUnit, minitest, mocha). */
const NUMBERED = /^\s*(\d{1,4})\) \S/;
/** An excerpt longer than this is the log going on, not the few source lines a report quotes. */
const MAX_EXCERPT_LINES = 8;
/**
 * A report that names its place and ends in a colon (`a.rst:196: SEVERE: Title level inconsistent:`):
 * what it means follows, set off by a blank line.
 */
function announcesExcerpt(text: string): boolean {
  if (!/:\s*$/.test(text)) return false;
  // An error that ends in a colon announces what it means as well when it names no place: autoconf's
  // `configure: error: Package requirements (gl) were not met:`, a blank line, then pkg-config's `No package
  // 'gl' found`.
  return isLocatedDiagnostic(text) || leadingLocation(text) !== undefined || ANNOUNCING_ERROR.test(text);
}
/** The last index of a short paragraph starting at `from` and closed by a blank line; -1 when there is none such. */
function excerptEnd(lines: readonly LogLine[], from: number): number {
  let k = from;
  while (k < lines.length && k - from < MAX_EXCERPT_LINES && !blank(lines[k])) {
    const t = lines[k]!.text;
    if (isStepMarker(t) || isConsequence(t) || isLocatedDiagnostic(t) || leadingLocation(t)) return -1;
    k++;
  }
  return k > from && blank(lines[k]) ? k - 1 : -1;
}

/**
 * The last index of the report a place alone on its line heads: paragraphs parted by single blank lines, at most
 * PLACE_REPORT_PARAGRAPHS of them, up to two blank lines in a row, the next place alone or a step's end.
 */
function placeReportEnd(lines: readonly LogLine[], header: number): number {
  let last = header;
  let paragraphs = 0;
  let k = header + 1;
  while (k < lines.length && k - header < MAX_BLOCK_LINES) {
    if (blank(lines[k])) {
      if (blank(lines[k + 1])) break;
      k++;
      continue;
    }
    const t = lines[k]!.text;
    if (isPlaceAlone(t) || isStepMarker(t) || isConsequence(t) || ++paragraphs > PLACE_REPORT_PARAGRAPHS) break;
    while (k < lines.length && k - header < MAX_BLOCK_LINES && !blank(lines[k]) && !isStepMarker(lines[k]!.text) && !isConsequence(lines[k]!.text)) last = k++;
  }
  return last;
}
/** The place alone on its line whose report (see placeReportEnd) the line `i` is in, if any. */
function placeReportStart(lines: readonly LogLine[], i: number): number | undefined {
  let paragraphs = 0;
  let k = i;
  while (k >= 0 && i - k < MAX_BLOCK_LINES) {
    if (blank(lines[k])) {
      if (blank(lines[k - 1])) return undefined;
      k--;
      continue;
    }
    if (++paragraphs > PLACE_REPORT_PARAGRAPHS + 1) return undefined;
    for (; k >= 0 && !blank(lines[k]); k--) {
      const t = lines[k]!.text;
      if (isPlaceAlone(t)) return k;
      if (isStepMarker(t) || isConsequence(t)) return undefined;
    }
  }
  return undefined;
}
/** A place's report: its message, its excerpt, its rule or its explanation. */
const PLACE_REPORT_PARAGRAPHS = 3;

const CARET_ONLY = /^\s*\^[\^~]*\s*$/;
/**
 * Words between the same marks of punctuation, a banner: `*** FATAL CONFIG FILE ERROR ***`, `!!! ERROR !!!`. Not a
 * title between rules of `=` or `-` (pytest's `==== ERRORS ====`): that opens a section of reports, each its own block.
 */
const FAILURE_BANNER = /^\s*([*!#])\1{2,}\s+\S.*\S\s+\1{3,}\s*$/;
/** A numbered line of a source excerpt: `  64 ┆ code`, `    7|   body`, `  > 9|`, ` 225 │ code`, `83 | key:`. */
export const EXCERPT_LINE = /^\s*>?\s*\d+\s?[|│┆]/;
/** A retried test's next attempt, under its own heading: `Retry #1 ─────`, `Attempt 2 of 3`, `RERUN #2`. */
const RETRY_HEADING = /^\s*(?:Retry|Attempt|Rerun|RERUN) #?\d+\b/;

/**
 * The last index of the block that starts at `header`: its indented continuation, frames, snippets and
 * assertion lines, further error lines at its own indent, and across one blank line when what follows
 * is still the block's (PHPUnit prints the failing test's location after a blank line). Stops at a step
 * marker, a consequence line (the exit code), the next test's title or a summary, and at MAX_BLOCK_LINES.
 */
export function blockEnd(lines: readonly LogLine[], header: number, minEnd = header): number {
  if (GO_PACKAGE_VERDICT.test(lines[header]!.text)) return Math.max(header, minEnd);
  const base = indentOf(lines[header]!.text);
  let end = Math.max(header, minEnd, closingRestatement(lines, header));
  const numbered = NUMBERED.exec(lines[header]!.text);
  const number = numbered ? Number(numbered[1]) : undefined;
  // A title that ends in a colon (`1) Failure:`, `Error:`) announces the lines under it, up to a blank line, and
  // so does a failure's banner, its words between the same marks (Redis' `*** FATAL CONFIG FILE ERROR (Redis
  // 7.0.15) ***` over `Reading the configuration file, at line 349` and the directive it quotes): it says only
  // that something failed, the lines under it say what and where.
  const announces = /:\s*$/.test(lines[header]!.text) || (FAILURE_BANNER.test(lines[header]!.text) && errorScore(lines[header]!.text) >= 0.5);
  const belongs = (t: string): boolean => indentOf(t) > base || isContinuation(t);
  // A trace is quoted down to the project's own frames: past them, the runtime's and the runner's are plumbing.
  let ownFrames = 0;
  let innerTitle: number | undefined;
  for (let j = header + 1; j <= end && innerTitle === undefined; j++) if (isTestTitle(lines[j]!.text)) innerTitle = indentOf(lines[j]!.text);
  // The project's frames already inside the block (a matcher related the test's own frame): the runner's
  // frames right under them end it as they would had the block grown to them.
  for (let j = header + 1; j <= end; j++) if (isFrame(lines[j]!.text) && !isExternalFrame(lines[j]!.text)) ownFrames++;
  let sawBlank = false;
  for (let j = end + 1; j < lines.length && j - header < MAX_BLOCK_LINES; j++) {
    const l = lines[j]!;
    const t = l.text;
    if (isEmptyLine(t)) {
      const next = lines[j + 1];
      // Docutils' and Sphinx's excerpt: `a.rst:196: SEVERE: Title level inconsistent:`, a blank line, then
      // the source lines it means, up to the next blank line. The report's colon announces them.
      // The report may carry one line of its message before the blank (Sphinx's `…/a.rst:140:Error in "testcode"
      // directive:` over `unknown option: "hidden".`).
      const announced = j - 1 === end && (announcesExcerpt(lines[end]!.text) || (end - 1 >= header && !sawBlank && announcesExcerpt(lines[end - 1]!.text)));
      const excerpt = announced ? excerptEnd(lines, j + 1) : -1;
      if (excerpt >= 0) {
        end = excerpt;
        break;
      }
      // A place alone on its line heads a report of a few paragraphs (ReScript's `  /x/src/Router.res:66:32`, its
      // excerpt, then `The argument at this position should be labelled.`; Redocly's `[2] a.yaml:84:7 at #/…`,
      // its message, its excerpt, then `Error was generated by the … rule.`): one blank line parts them, two
      // end the report, and so does the next place alone.
      if (!sawBlank && isPlaceAlone(lines[header]!.text)) {
        end = Math.max(end, placeReportEnd(lines, header));
        break;
      }
      // A unified diff under the message, past one blank line (Python-Markdown's `Output from "x.txt" failed to
      // match expected output.`, a blank, then `--- x.html` / `+++ actual_output.html` / `@@ … @@`): the report's
      // own comparison, quoted whole as its hunks count it.
      const diffEnd = next && !sawBlank ? unifiedDiffEnd(lines, j + 1) : -1;
      if (diffEnd >= 0) {
        end = Math.min(diffEnd, header + MAX_BLOCK_LINES - 1);
        j = end;
        sawBlank = true;
        continue;
      }
      if (!next || blank(next) || !belongs(next.text) || isStepMarker(next.text)) break;
      sawBlank = true;
      continue;
    }
    // The same diff right under the message: its context lines (a space, then the text) are the hunk's,
    // whatever their indent says.
    const diffEnd = unifiedDiffEnd(lines, j);
    if (diffEnd >= 0) {
      end = Math.min(diffEnd, header + MAX_BLOCK_LINES - 1);
      j = end;
      continue;
    }
    if (isStepMarker(t) || isConsequence(t) || isSummaryHeader(t)) break;
    // What the failing test printed while it ran (nose's `>> begin captured logging <<`, pytest's `--- Captured
    // stdout call ---`) follows the runner's report of the failure: context, not the report.
    if (isCapturedBanner(t)) break;
    // A runner that retries a failed test prints the same failure again under a heading (Playwright's
    // `Retry #1 ───`): the first attempt is the report, the retries restate it.
    if (RETRY_HEADING.test(t)) break;
    // `Test Summary Report` over a rule of dashes: the rule underlines the header. A rule further down
    // closes the block: Maven's `[INFO] ----` under `[INFO] 2 errors`, unittest's before `Ran 5 tests`.
    if (isRule(t)) {
      if (j === header + 1) continue;
      break;
    }
    if (isTestTitle(t) && indentOf(t) <= base) break;
    // The next numbered failure (`  2) Reservation …` after `1) TestController …`) is the next one whatever
    // its indent: a paste often loses the first title's.
    if (number !== undefined && Number(NUMBERED.exec(t)?.[1]) === number + 1) break;
    // The next test's title at the indent of the first one under the header (jest's second `●` under
    // `FAIL file`): the next failure, not this one's continuation.
    if (isTestTitle(t)) {
      if (innerTitle !== undefined && indentOf(t) <= innerTitle) break;
      innerTitle ??= indentOf(t);
    }
    if (isFrame(t)) {
      if (isExternalFrame(t)) {
        if (ownFrames) break;
      } else ownFrames++;
    }
    if (belongs(t) || errorScore(t) >= 0.5 || (announces && lines[j - 1]!.text.trim() !== '') || samePlace(lines[j - 1]!.text, t) || placedFault(t)) end = j;
    else break;
  }
  return end;
}

/**
 * A report under the header that names a fault and its place at the header's own indent, with no severity
 * word (CUPS' `Unknown directive X on line 23 of /x/cupsd.conf.` under `"/x/cupsd.conf" contains errors.`,
 * Icinga's `Location: in a.conf: 25:3-25:31` under its `Error: Validation failed …`): the report the header
 * announces, not the next one. A passing or skipped test's line is none.
 */
function placedFault(text: string): boolean {
  if (PASSING.test(text) || isShellTrace(text) || isCommandEcho(text)) return false;
  if (LOCATION_LABEL.test(text)) return locationsIn(text).length > 0;
  // a table's row under its file's heading (SQLFluff's `L:  36 | P:   1 | L010 | …` under `== [a.sql] FAIL`)
  if (isReportRow(text)) return true;
  return locationsIn(text).length > 0 && FAULT_WORDS.test(text.replace(PATHISH_WORD, ' '));
}
/** A line that only gives the report's place under a label: `Location: in a.conf: 25:3-25:31`. */
const LOCATION_LABEL = /^\s*(?:Location|Position|Where|Source|At):\s/;

/** A shell's report place: `./build.sh: line 34: `, `/tmp/x.sh: 12: `. */
const SHELL_PLACE = /^(\S+: (?:line )?\d+: )/;
/**
 * A line that continues the report above at the same place: bash prints a syntax error on two lines, the
 * second quoting the code it could not parse (`a.sh: line 34: syntax error near unexpected token `}'`,
 * then `a.sh: line 34: `}'`).
 */
function samePlace(above: string, text: string): boolean {
  const place = SHELL_PLACE.exec(above)?.[1];
  return place !== undefined && text.startsWith(place);
}
