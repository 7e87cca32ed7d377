import type { Category, LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';
import { isJvmLibraryFrame, parseJvmFrame } from './frames-jvm.js';

// Surefire's per-test header: `[ERROR] com.a.XTest.testX -- Time elapsed: … <<< FAILURE!` (3.x) or
// `[ERROR] testX(com.a.XTest)  Time elapsed: … <<< ERROR!` (2.x / JUnit 4 naming); surefire before 2.19
// printed it with no level (`testX(com.a.XTest)  Time elapsed: 0.007 sec  <<< FAILURE!`).
const TEST_HEADER = /^(?:\[ERROR\] )?(\S.*?)(?: --|  ) ?Time elapsed: .*<<< (FAILURE|ERROR)!$/;
// Surefire's count for one test class that failed: `[ERROR] Tests run: 4, Failures: 0, Errors: 2, …, Time elapsed: 0.054 s <<< FAILURE! - in com.a.XTest`.
const CLASS_RESULT = /^(?:\[ERROR\] )?Tests run: \d+, Failures: \d+, Errors: \d+, Skipped: \d+, Time elapsed: .*<<< (?:FAILURE|ERROR)!/;
const JUNIT4_NAME = /^([\w$]+)\(([\w.$]+)\)$/;
// The Results summary: `[ERROR] Failures:` / `[ERROR] Errors:` (3.x), `Failed tests:` / `Tests in error:` (2.x).
const SUMMARY_HEAD = /^(?:\[ERROR\] )?(?:Failures|Errors|Failed tests|Tests in error):\s*$/;
// `[ERROR]   XTest.testX:12 msg`, `[ERROR]   A>B.testX:33 » IllegalState`, `  testX(com.a.XTest): msg`.
const SUMMARY_ENTRY = /^(?:\[ERROR\])?\s{2,}(?:([\w$]+(?:>[\w$]+)*)\.([\w$]+)(?::(\d+))?|([\w$]+)\(([\w.$]+)\))(?::?\s+(.*))?$/;
const RESOLVE = /Could not resolve dependencies for project|Could not transfer artifact|Could not find artifact|Non-resolvable (?:parent POM|import POM)|Failed to read artifact descriptor|Plugin \S+ or one of its dependencies could not be resolved/;
// Resolution failures that are the network's fault, not the PR's: retry, do not pin.
const NETWORK = /Connection (?:refused|reset|timed out)|Connect to \S+ failed|Read timed out|Unknown ?host|UnknownHostException|No route to host|status code: 5\d\d|\b50[234] (?:Bad Gateway|Service Unavailable|Gateway Time-?out)|Remote host terminated the handshake|SSLHandshakeException/i;
const ARTIFACT = /artifact ([\w.-]+):([\w.-]+):(?:[\w-]+:)?[\w.-]+/;

/** Reads Maven: surefire/failsafe test failures and summaries, and dependency resolution errors. */
export const mavenMatcher: Matcher = {
  id: 'maven',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    const tests = new Map<string, Signal>();
    for (let i = 0; i < lines.length; i++) {
      const text = lines[i]!.text;
      const header = text.includes('<<<') ? TEST_HEADER.exec(text) : null;
      if (header) {
        const symbol = testName(header[1]!);
        const signal = testSignal(symbol, lines[i]!.n);
        const next = lines[i + 1];
        // The exception line under the header is the assertion message (expected/actual included).
        if (next && !next.text.startsWith('[') && !/^\s*at /.test(next.text) && next.text.trim()) {
          signal.message = next.text.trim();
          signal.related = [next.n];
        }
        // Surefire's count for the test class just above the first of its failures heads their block.
        const above = lines[i - 1];
        if (above && CLASS_RESULT.test(above.text)) signal.related = [above.n, ...(signal.related ?? [])];
        locateInTest(signal, lines, i + 1);
        tests.set(shortName(symbol), signal);
        out.push(signal);
        continue;
      }
      if (SUMMARY_HEAD.test(text)) {
        const end = readSummary(lines, i + 1, tests, out);
        const block = summaryBlock(lines, i, end);
        if (block) out.push(block);
        i = end - 1;
        continue;
      }
      if (PROJECTS_HEAD.test(text)) {
        const block = projectsBlock(lines, i);
        if (block) out.push(block);
      }
      // Warnings about a mirror that failed before another one answered are noise; errors are the verdict.
      if (!text.startsWith('[WARNING]') && !text.startsWith('[INFO]') && RESOLVE.test(text)) {
        const message = text.replace(/^\[(?:ERROR|WARNING)\] /, '').trim();
        const category: Category = NETWORK.test(message) ? 'infra' : 'dependency';
        const signal: Signal = { kind: 'diagnostic', message, tool: 'maven', category, severity: 'error', weight: 0.8, logLine: lines[i]!.n };
        const a = ARTIFACT.exec(message);
        if (a) signal.symbol = a[2]!;
        out.push(signal);
      }
    }
    return out;
  },
};

// Maven's report that it could not build the project model: the projects and their errors follow it.
const PROJECTS_HEAD = /^\s*\[ERROR\] (?:The build could not read \d+ projects?\b|Some problems were encountered while processing the POMs:)/;
// Where that report ends and Maven's advice starts: `[ERROR] To see the full stack trace …`, `[ERROR] Re-run Maven …`.
const ADVICE = /^\[ERROR\] (?:To see the full stack trace|Re-run Maven|For more information about the errors|\[Help \d)/;
/** How many lines the project-model report may hold: a few projects with a few errors each. */
const MAX_PROJECTS_REPORT = 40;

/**
 * `[ERROR] The build could not read 2 projects -> [Help 1]` and the projects under it (`The project x (pom.xml)
 * has 1 error`, each error indented below) as one block, down to Maven's advice.
 */
function projectsBlock(lines: readonly LogLine[], head: number): Signal | null {
  const related: number[] = [];
  let last = head;
  for (let k = head + 1; k < lines.length && k <= head + MAX_PROJECTS_REPORT; k++) {
    const t = lines[k]!.text;
    if (!t.startsWith('[ERROR]') || ADVICE.test(t)) break;
    related.push(lines[k]!.n);
    if (t.slice('[ERROR]'.length).trim() !== '') last = k;
  }
  if (last === head) return null;
  const body = lines.slice(head + 1, last + 1).map((l) => l.text).join('\n');
  const category: Category = NETWORK.test(body) ? 'infra' : RESOLVE.test(body) ? 'dependency' : 'compile';
  const message = lines[head]!.text.trim().replace(/^\[ERROR\] /, '').replace(/ -> \[Help \d+\]$/, '');
  return { kind: 'diagnostic', message, tool: 'maven', category, severity: 'error', weight: 0.9, logLine: lines[head]!.n,
    related: related.filter((n) => n <= lines[last]!.n), blockEnd: lines[last]!.n };
}

// Surefire's count under its Results summary: `[ERROR] Tests run: 25, Failures: 0, Errors: 1, Skipped: 0`.
const TOTALS = /^(?:\[(?:ERROR|WARNING)\] )?Tests run: \d+, Failures: \d+, Errors: \d+/;
// What surefire prints between the summary's entries and its count: an empty `[INFO]` line or a blank one.
const SPACER = /^(?:\[INFO\])?\s*$/;
/** How many spacer lines may sit between the last summary entry and the count (`[INFO]` twice in 3.x). */
const MAX_SPACERS = 3;

/**
 * Surefire's Results summary as one block: `[ERROR] Failures:` / `[ERROR] Errors:`, its entries (the test,
 * its line, the message) and the `Tests run: …, Failures: …` count under them, which is what a reader
 * pastes beside the first failure. `end` is the index after the last entry.
 */
function summaryBlock(lines: readonly LogLine[], head: number, end: number): Signal | null {
  if (end <= head + 1) return null;
  const related: number[] = [];
  for (let k = head + 1; k < end; k++) related.push(lines[k]!.n);
  // Surefire 3 prints `Failures:` then `Errors:` one after the other: only the last one reaches the count.
  for (let k = end, spacers = 0; k < lines.length && spacers <= MAX_SPACERS; k++) {
    const t = lines[k]!.text;
    if (TOTALS.test(t)) {
      related.push(lines[k]!.n);
      break;
    }
    if (!SPACER.test(t)) break;
    spacers++;
  }
  return { kind: 'diagnostic', message: lines[head]!.text.replace(/^\[ERROR\] /, '').trim(), tool: 'maven', category: 'test', severity: 'error', weight: 0.6, logLine: lines[head]!.n, related };
}

/** `testX(com.a.XTest)` → `com.a.XTest.testX`; surefire 3 already prints the dotted form. */
function testName(raw: string): string {
  const m = JUNIT4_NAME.exec(raw.trim());
  return m ? `${m[2]}.${m[1]}` : raw.trim();
}

/** `com.a.XTest.testX` → `XTest.testX`, the form the Results summary uses. */
function shortName(symbol: string): string {
  const parts = symbol.split('.');
  return parts.slice(-2).join('.');
}

function testSignal(symbol: string, logLine: number): Signal {
  return { kind: 'test', symbol, message: symbol, tool: 'maven', category: 'test', severity: 'error', weight: 0.9, logLine };
}

/** The test's own frame (`at com.a.XTest.testX(XTest.java:12)`) is the assertion line. */
function locateInTest(signal: Signal, lines: readonly LogLine[], from: number): void {
  const symbol = signal.symbol!;
  const method = symbol.slice(symbol.lastIndexOf('.') + 1);
  let inherited: ReturnType<typeof parseJvmFrame> = null;
  for (let k = from; k < lines.length && k < from + 200; k++) {
    const t = lines[k]!.text;
    if (t.startsWith('[')) break;
    const f = parseJvmFrame(t);
    if (!f) continue;
    if (f.symbol === symbol || symbol.startsWith(`${f.className}.`)) {
      signal.path = f.path;
      signal.line = f.line;
      // The test's frame closes the block a person quotes: the message (however many lines) down to it.
      (signal.related ??= []).push(lines[k]!.n);
      return;
    }
    // A test method inherited from a base class runs in the base class's frame.
    if (!inherited && f.symbol.endsWith(`.${method}`) && !isJvmLibraryFrame(f.symbol)) inherited = f;
  }
  if (inherited) {
    signal.path = inherited.path;
    signal.line = inherited.line;
  }
}

/** Reads summary entries until the block ends; returns the index after it. */
function readSummary(lines: readonly LogLine[], from: number, tests: Map<string, Signal>, out: Signal[]): number {
  const prefixed = lines[from - 1]!.text.startsWith('[ERROR]');
  let k = from;
  for (; k < lines.length && k < from + 500; k++) {
    const l = lines[k]!;
    const m = SUMMARY_ENTRY.exec(l.text);
    if (!m) {
      // Surefire 3 wraps long messages onto `[ERROR]   ` continuation lines that do not parse, and prints a
      // multi-line message's further lines bare (no `[ERROR]`): both belong to the entry above; keep going.
      if (/^\[ERROR\]\s{3,}\S/.test(l.text)) continue;
      if (prefixed && k > from && l.text.trim() !== '' && !l.text.startsWith('[')) continue;
      // A message that ends in a newline leaves a blank line before the next entry.
      if (prefixed && k > from && l.text.trim() === '' && SUMMARY_ENTRY.test(lines[k + 1]?.text ?? '')) continue;
      break;
    }
    const classes = (m[1] ?? '').split('>');
    const cls = m[1] ? classes[classes.length - 1]! : m[5]!.split('.').pop()!;
    const method = m[2] ?? m[4]!;
    const key = `${m[1] ? classes[0] : cls}.${method}`;
    const prior = tests.get(key);
    if (prior) {
      (prior.related ??= []).push(l.n);
      continue;
    }
    const signal = testSignal(m[5] ? `${m[5]}.${method}` : `${m[1]}.${method}`, l.n);
    if (m[6]) signal.message = m[6].trim();
    if (m[3]) {
      // The summary names only the class: its file name is the best path there is.
      signal.path = `${cls.split('$')[0]}.java`;
      signal.line = Number(m[3]);
    }
    tests.set(key, signal);
    out.push(signal);
  }
  return k;
}
