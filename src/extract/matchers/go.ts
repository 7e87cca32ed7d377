import type { Category, LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

// Lines past this are blobs (minified JSON, base64), never a diagnostic; skipping them bounds the scan.
const MAX_LINE = 4000;
// `go vet` (1.20+) prefixes type-check failures with `vet: `; the path has no spaces in Go's own output.
const DIAGNOSTIC = /^(?:vet: )?(\S+\.go):(\d+)(?::(\d+))?: (.+)$/;
// Test log lines are indented under their `--- FAIL`; the file is named relative to the package dir.
const TEST_MESSAGE = /^\s+(\S+\.go):(\d+): (.*)$/;
const TEST_FAIL = /^(\s*)--- FAIL: (\S+) \(\d+(?:\.\d+)?s\)$/;
const STATUS = /^\s*--- (?:PASS|FAIL|SKIP): /;
const RUN = /^=== (?:RUN|CONT)\s+(\S+)$/;
// A command echo (`Run go vet ./...`, `+ go vet`, `$ go vet`) switches what kind of check is running.
const COMMAND = /\bgo (vet|build|test|run|install)\b/;
// Messages only the vet analyzers print: a vet finding is a lint failure, not a broken build.
const VET_MESSAGE =
  /\b(?:format %\S* has arg|format %\S* reads arg|call has arguments but no formatting directives|possible formatting directive|arg list ends with redundant newline|unreachable code|composite literal uses unkeyed fields|self-assignment of|passes lock by value|copies lock value|assignment copies lock|result of \S+ call not used|struct field tag|possible misuse of|loop variable \S+ captured by func literal|the cancel function|comparison of function|suspect or:|redundant (?:or|and):|should have signature|unusedresult|misuse of unbuffered os\.Signal channel)/;
const DEPENDENCY =
  /no required module provides package|cannot find package|cannot find module providing package|missing go\.sum entry|module lookup disabled|unknown revision|reading \S+: 404|package \S+ is not in (?:GOROOT|std)/;

function categoryOf(message: string, vetRunning: boolean): Category {
  if (DEPENDENCY.test(message)) return 'dependency';
  return vetRunning || VET_MESSAGE.test(message) ? 'lint' : 'compile';
}

/** Tab-indented lines under a build error elaborate it (`have (int)`, `want (string)`, `go get x`). */
function elaboration(lines: readonly LogLine[], from: number): number[] {
  const out: number[] = [];
  for (let j = from; j < lines.length && out.length < 10 && lines[j]!.text.startsWith('\t'); j++) out.push(lines[j]!.n);
  return out;
}

/**
 * Messages of one failed test: indented `file.go:N: msg` lines and their deeper-indented continuation
 * lines (a multi-line t.Errorf, a diff). Without -v they follow `--- FAIL`; with -v they precede it.
 */
function testMessages(lines: readonly LogLine[], from: number, to: number, indent: number): LogLine[] {
  const out: LogLine[] = [];
  for (let j = from; j < to && out.length < 40; j++) {
    const text = lines[j]!.text;
    if (text.length <= indent || !/^\s/.test(text.slice(indent)) || STATUS.test(text)) break;
    out.push(lines[j]!);
  }
  return out;
}

/** Finds the `=== RUN name` a -v run printed, at most 200 lines back, so the messages between can be read. */
function runStart(lines: readonly LogLine[], at: number, name: string): number {
  for (let j = at - 1; j >= 0 && j >= at - 200; j--) {
    const m = RUN.exec(lines[j]!.text);
    if (m && m[1] === name) return j + 1;
  }
  return -1;
}

function testSignal(lines: readonly LogLine[], i: number, name: string, indent: number): Signal {
  let msgs = testMessages(lines, i + 1, lines.length, indent);
  if (msgs.length === 0) {
    const start = runStart(lines, i, name);
    if (start >= 0) msgs = testMessages(lines, start, i, 0).filter((l) => !RUN.test(l.text));
  }
  const first = msgs.find((l) => TEST_MESSAGE.test(l.text));
  const m = first ? TEST_MESSAGE.exec(first.text) : null;
  const next = lines[i + 1]?.text ?? '';
  const signal: Signal = {
    kind: 'test',
    symbol: name,
    // A test that panicked prints no message of its own; the panic line is the one a person quotes.
    message: m ? m[3]! : next.startsWith('panic: ') ? next : lines[i]!.text.trim(),
    tool: 'go',
    category: 'test',
    weight: 0.9,
    logLine: lines[i]!.n,
  };
  if (m) Object.assign(signal, { path: m[1], line: Number(m[2]) });
  const related = msgs.filter((l) => l !== first).map((l) => l.n);
  if (first) related.unshift(first.n);
  if (related.length) signal.related = related;
  return signal;
}

/** Reads `go build` / `go vet` diagnostics (`./x.go:12:5: msg` under `# pkg`) and `go test` failures. */
export const goMatcher: Matcher = {
  id: 'go',
  extract(lines) {
    const signals: Signal[] = [];
    let vetRunning = false;
    // A parent of failed subtests has nothing of its own to say; the subtests carry the evidence.
    const failed = lines.flatMap((l) => (l.text.includes('--- FAIL') ? [TEST_FAIL.exec(l.text)?.[2] ?? ''] : []));
    const isParent = (name: string) => failed.some((f) => f.startsWith(name + '/'));
    for (let i = 0; i < lines.length; i++) {
      const { n, text } = lines[i]!;
      // Cheap pre-check: every line this matcher reads names go or a FAIL.
      if (text.length > MAX_LINE || !(text.includes('go') || text.includes('FAIL'))) continue;
      const cmd = COMMAND.exec(text);
      if (cmd && !text.includes('.go:')) vetRunning = cmd[1] === 'vet';
      const fail = TEST_FAIL.exec(text);
      if (fail) {
        if (!isParent(fail[2]!)) signals.push(testSignal(lines, i, fail[2]!, fail[1]!.length));
        continue;
      }
      if (/^\s/.test(text)) continue;
      const d = DIAGNOSTIC.exec(text);
      if (d) {
        const [, path, line, column, message] = d;
        const related = elaboration(lines, i + 1);
        signals.push({
          kind: 'diagnostic',
          path: path!,
          line: Number(line),
          ...(column ? { column: Number(column) } : {}),
          message: message!,
          tool: 'go',
          severity: 'error',
          category: categoryOf(message!, vetRunning),
          weight: 1.0,
          logLine: n,
          ...(related.length ? { related } : {}),
        });
        continue;
      }
      // `go: ...` lines without a location: module resolution failed before anything compiled.
      if (text.startsWith('go: ') && DEPENDENCY.test(text)) {
        signals.push({ kind: 'diagnostic', message: text, tool: 'go', category: 'dependency', weight: 0.8, logLine: n });
      }
    }
    return signals;
  },
};
