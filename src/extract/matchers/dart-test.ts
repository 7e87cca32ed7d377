import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

/** Longer lines are serialized values, not a reporter line: skipping them bounds the regexes. */
const MAX_LINE = 4000;
/** Lines of one failure kept as related: a matcher's Expected/Actual/Which (values can run long) and its trace. */
const MAX_BLOCK = 40;
/** How far from a trace its `Expected:` may be: the reporter prints the message right above it (or a user pasted it below). */
const MESSAGE_REACH = 30;
// package:test's progress line: `00:02 +1 -1: group test name [E]` marks the test that failed; the rest only count.
const PROGRESS = /^\d+:\d{2} \+\d+(?: ~\d+)?(?: -\d+)?: /;
const FAILED_TEST = /^\d+:\d{2} \+\d+(?: ~\d+)?(?: -\d+)?: (.+?) \[E\]\s*$/;
// `00:23 +95 -1: Some tests failed.` restates the failures above.
const SUMMARY = /^\d+:\d{2} \+\d+(?: ~\d+)? -\d+: Some tests failed\.\s*$/;
// package:stack_trace's terse frames: `test/foo_test.dart 12:5   main.<fn>`, `package:matcher   expect` (no line).
// A quoted value's text (`'test/x.dart 4  main\n'` inside an Actual: list) is not a frame.
const TERSE_FRAME = /^\s*((?:[A-Za-z]:)?[^\s'"`][^\s]*?\.dart|package:[\w/.-]+|dart:[\w/.-]+) +(?:(\d+)(?::(\d+))? +)?(\S.*)$/;
// Flutter's own trace: `#3      main.<anonymous closure> (file:///abs/foo_test.dart:38:7)`.
const VM_FRAME = /^#\d+\s+(.+?) \(((?:file:|package:|dart:)?[^()\s]*?\.dart):(\d+)(?::(\d+))?\)$/;
const FLUTTER_HEADER = /^══╡ EXCEPTION CAUGHT BY FLUTTER TEST FRAMEWORK ╞═+$/;
const FLUTTER_FOOTER = /^═{20,}$/;
const FLUTTER_THROWN = /^The following .+ was thrown (?:running a test|while running async test code)/;
// `  file:///abs/test/x_test.dart line 141` under `This was caught by the test expectation on the following line:`.
const CAUGHT_AT = /^\s*(file:\/\/\S+?\.dart) line (\d+)$/;
const MESSAGE = /^\s*(?:Expected|Actual|Which): /;
// The front end's compile errors, printed by `flutter test` (once as `compiler message: …`) and under a suite that
// failed to load: `test/a_test.dart:4:11: Error: message`, then the source line and `^^^^`; a `Context:` note
// belongs to the error above it.
const COMPILE = /^(?:compiler message: )?\s*(\S+?\.dart):(\d+):(\d+): (Error|Warning|Context): (.*)$/;
const COMPILER_PREFIX = /^compiler message: /;
const CARET = /^\s*\^+\s*$/;
// A suite that could not be compiled or loaded: `00:00 +0 -1: loading test/a_test.dart [E]`.
const LOADING = /^loading /;
// The runner's generated listener in a temporary directory is no test's line.
const GENERATED = /(?:dart_test_listener|flutter_test_listener|flutter_tools\.)\w*\/listener\.dart$|^\/var\/folders\/|^\/tmp\//;

interface Frame { n: number; path: string; line?: number; column?: number; fn: string }

/** A library's frame (package:, dart:) says where the matcher ran, not which test line failed. */
function isLibrary(path: string): boolean {
  return path.startsWith('package:') || path.startsWith('dart:') || GENERATED.test(path);
}

/** `file:///abs/x.dart` and `///abs/x.dart` → `/abs/x.dart`; Windows' `test\x_test.dart` → `test/x_test.dart`. */
function cleanPath(path: string): string {
  return path.replace(/^file:\/\//, '').replace(/^\/{2,}/, '/').replace(/\\/g, '/');
}

function terseFrame(l: LogLine): Frame | undefined {
  if (l.text.length > MAX_LINE) return undefined;
  const f = TERSE_FRAME.exec(l.text);
  if (!f) return undefined;
  // A bare path with no line is only a frame when it is a library's (`package:matcher   expect`).
  if (!f[2] && !isLibrary(f[1]!)) return undefined;
  const frame: Frame = { n: l.n, path: f[1]!, fn: f[4]!.trim() };
  if (f[2]) frame.line = Number(f[2]);
  if (f[3]) frame.column = Number(f[3]);
  return frame;
}

function vmFrame(l: LogLine): Frame | undefined {
  const f = l.text.length <= MAX_LINE && l.text.startsWith('#') ? VM_FRAME.exec(l.text) : null;
  if (!f) return undefined;
  const frame: Frame = { n: l.n, path: f[2]!, line: Number(f[3]), fn: f[1]! };
  if (f[4]) frame.column = Number(f[4]);
  return frame;
}

function signalFor(frames: Frame[], message: LogLine[], related: number[], logLine: number, symbol?: string): Signal {
  const own = frames.find((f) => !isLibrary(f.path) && f.line !== undefined);
  const s: Signal = { kind: 'test', message: message.map((l) => l.text.trim()).filter(Boolean).slice(0, 3).join(' ') || (symbol ?? 'test failed'),
    tool: 'dart-test', category: 'test', severity: 'error', weight: 0.9, logLine, related: [...new Set(related)].filter((n) => n !== logLine).sort((a, b) => a - b) };
  if (symbol) s.symbol = symbol;
  if (own) {
    s.path = cleanPath(own.path);
    s.line = own.line!;
    if (own.column) s.column = own.column;
    if (!symbol) s.symbol = own.fn;
  }
  return s;
}

/**
 * Reads `dart test` / `flutter test` failures: package:test's `[E]` test with the matcher's Expected/Actual/Which
 * and the terse trace under it (`test/foo_test.dart 12:5  main.<fn>`), and Flutter's `EXCEPTION CAUGHT BY FLUTTER
 * TEST FRAMEWORK` block. Each is pinned to the first frame outside package: and dart: (the test's own line), or
 * to the line Flutter says the expectation was on. `Some tests failed.` restates them.
 */
export const dartTestMatcher: Matcher = {
  id: 'dart-test',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    const used = new Set<number>();
    for (let i = 0; i < lines.length; i++) {
      const l = lines[i]!;
      if (l.text.length > MAX_LINE || used.has(i)) continue;
      if (SUMMARY.test(l.text)) {
        out.push({ kind: 'test', message: 'Some tests failed.', tool: 'dart-test', category: 'test', severity: 'error', weight: 0.3,
          logLine: l.n, restatement: true });
        continue;
      }
      const c = l.text.includes('.dart:') ? COMPILE.exec(l.text) : null;
      if (c) {
        const related: number[] = [];
        // The source line and caret under it, inside the same `compiler message: ` stream when it has one.
        const prefixed = COMPILER_PREFIX.test(l.text);
        for (let j = i + 1; j < lines.length && related.length < 2; j++) {
          const t = lines[j]!.text;
          if ((prefixed && !COMPILER_PREFIX.test(t)) || COMPILE.test(t) || PROGRESS.test(t)) break;
          related.push(lines[j]!.n);
          if (CARET.test(t.replace(COMPILER_PREFIX, ''))) break;
        }
        for (let k = i; k <= i + related.length; k++) used.add(k);
        const severity = c[4]!;
        if (severity === 'Context') {
          const above = out.at(-1);
          if (above?.category === 'compile') above.related!.push(l.n, ...related);
        } else {
          const error = severity === 'Error';
          out.push({ kind: 'diagnostic', path: cleanPath(c[1]!), line: Number(c[2]), column: Number(c[3]), message: c[5]!.trim(), tool: 'dart-test',
            category: 'compile', severity: error ? 'error' : 'warning', weight: !error ? 0.3 : isLibrary(c[1]!) ? 0.5 : 1, logLine: l.n, related });
        }
        i += related.length;
        continue;
      }
      if (FLUTTER_HEADER.test(l.text)) {
        const related = [l.n];
        const message: LogLine[] = [];
        const frames: Frame[] = [];
        let caught: Frame | undefined;
        let inMessage = false;
        let j = i + 1;
        for (; j < lines.length && j - i <= MAX_BLOCK * 4; j++) {
          const t = lines[j]!;
          if (FLUTTER_FOOTER.test(t.text) || FLUTTER_HEADER.test(t.text)) {
            related.push(t.n);
            break;
          }
          if (related.length < MAX_BLOCK) related.push(t.n);
          if (FLUTTER_THROWN.test(t.text)) inMessage = true;
          else if (inMessage && t.text.trim() === '') inMessage = false;
          else if (inMessage && message.length < MAX_BLOCK) message.push(t);
          const f = vmFrame(t);
          if (f) frames.push(f);
          const c = CAUGHT_AT.exec(t.text);
          if (c) caught = { n: t.n, path: c[1]!, line: Number(c[2]), fn: 'expect' };
        }
        for (let k = i; k < j; k++) used.add(k);
        out.push(signalFor(caught ? [caught, ...frames] : frames, message, related, message[0]?.n ?? l.n));
        i = j;
        continue;
      }
      // package:test: a run of terse frames is one failure's trace; its message is the Expected/Actual beside it.
      const first = terseFrame(l);
      if (!first) continue;
      const frames = [first];
      let j = i + 1;
      for (; j < lines.length && frames.length < MAX_BLOCK; j++) {
        const f = terseFrame(lines[j]!);
        if (f) frames.push(f);
        else if (lines[j]!.text.trim() !== '' || !terseFrame(lines[j + 1] ?? { n: 0, text: '' })) break;
      }
      // One frame alone, all in libraries, is not a failure's trace (a stray `dart:io ...` line).
      if ((frames.length < 2 && isLibrary(first.path)) || !frames.some((f) => f.line !== undefined)) continue;
      // Look up for the `[E]` line and the message under it; a user may have pasted the message below the trace.
      let header: { n: number; name: string; at: number } | undefined;
      const message: LogLine[] = [];
      const related = frames.map((f) => f.n);
      for (let k = i - 1; k >= 0 && i - k <= MESSAGE_REACH && !used.has(k); k--) {
        const t = lines[k]!;
        const h = FAILED_TEST.exec(t.text);
        if (h) {
          header = { n: t.n, name: h[1]!, at: k };
          break;
        }
        if (PROGRESS.test(t.text) || terseFrame(t)) break;
        related.push(t.n);
        message.unshift(t);
      }
      if (!message.some((m) => MESSAGE.test(m.text))) {
        for (let k = j; k < lines.length && k - j <= MESSAGE_REACH && message.length < MAX_BLOCK; k++) {
          const t = lines[k]!;
          if (PROGRESS.test(t.text) || terseFrame(t) || FLUTTER_HEADER.test(t.text)) break;
          if (t.text.trim() === '' && message.length > 0) break;
          if (t.text.trim() === '') continue;
          if (!MESSAGE.test(t.text) && message.length === 0) break;
          message.push(t);
          related.push(t.n);
        }
      }
      for (let k = header?.at ?? i; k < j; k++) used.add(k);
      const text = message.filter((m) => MESSAGE.test(m.text));
      const failure = signalFor(frames, text.length ? text : message, header ? [header.n, ...related] : related, header?.n ?? message[0]?.n ?? first.n, header?.name);
      // A suite that failed to load did not run: the compile errors above, when there are, say why.
      if (header && LOADING.test(header.name)) Object.assign(failure, { category: 'compile', weight: 0.5 });
      out.push(failure);
      i = j - 1;
    }
    return out.sort((a, b) => a.logLine - b.logLine);
  },
};
