import type { Category, LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

const MAX_LINE = 4000;
const HEADER = /^(error|warning)(?:\[([A-Z]\d{4})\])?: (.+)$/;
const ARROW = /^\s*--> (.+):(\d+):(\d+)$/;
// Cargo's own summaries repeat what the diagnostics above already said.
const SUMMARY =
  /^(?:could not compile|aborting due to|build failed|test failed|\d+ warnings? emitted|`[^`]+` \([^)]*\) generated)|^(?:unused manifest key)/;
// Resolution failures that have no source location: the manifest asks for something cargo cannot get.
const RESOLUTION =
  /^(?:no matching package|failed to select a version|failed to get `|failed to download|failed to load source for dependency|cyclic package dependency|package `[^`]+` cannot be built)/;
// Body lines that tie a diagnostic to clippy: the lint level note, the allow hint or the docs URL.
const CLIPPY = /clippy::([\w-]+)|rust-clippy\/[^#\s]*#(\w+)/;
const UNLINKED = /unlinked crate|can't find crate|`cargo add |extern crate|maybe a missing crate/;
// Source excerpts: `12 |     code`, the `|` gutter, and suggestion diffs `12 -  old` / `12 +  new`.
const SNIPPET = /^\s*(?:\d+\s*)?\||^\s*\d+ [-+~](?: |$)/;
// A sub-diagnostic that suggests a change: `help: consider cloning the value`, `help: remove \`return\``.
const SUGGESTION = /^help: /;
const TEST_BLOCK = /^---- (\S+) stdout ----$/;
// libtest's progress line of a test that failed: `test tests::it_works ... FAILED` (the list people quote
// with the panic); a passing one ends in `ok`. Only the first few are quoted, as a list's first lines.
const TEST_FAILED = /^test (\S+) \.\.\. FAILED$/;
const MAX_FAILED_LINES = 10;
// 1.73+: `thread 'x' (id) panicked at src/lib.rs:12:5:` with the message below; before: `'msg', src/lib.rs:12:5`.
const PANIC_NEW = /^thread '([^']*)'(?: \(\d+\))? panicked at (.+):(\d+):(\d+):$/;
const PANIC_OLD = /^thread '([^']*)'(?: \(\d+\))? panicked at '(.*)', (.+):(\d+):(\d+)$/;
// Before 1.73 an assert_eq! message spanned lines inside the quotes: `…panicked at 'assertion failed: …`
// then `  left: …`, ` right: …`, and the location closes the last line: `…', src/lib.rs:12:5`.
const PANIC_OLD_OPEN = /^thread '([^']*)'(?: \(\d+\))? panicked at '(.*)$/;
const PANIC_OLD_CLOSE = /^(.*)', (\S+):(\d+):(\d+)$/;

function categoryOf(code: string | undefined, body: string, clippy: boolean): Category {
  if (clippy) return 'lint';
  if (code === 'E0463' || ((code === 'E0432' || code === 'E0433') && UNLINKED.test(body))) return 'dependency';
  return 'compile';
}

/** One rustc diagnostic runs from its header to the first blank line; snippet lines (`12 |`, `|`) are not evidence. */
function readDiagnostic(lines: readonly LogLine[], i: number, m: RegExpExecArray): { signal: Signal | null; end: number } {
  const [, severity, code, message] = m;
  let arrow: RegExpExecArray | null = null;
  let arrowN = 0;
  const related: number[] = [lines[i]!.n];
  let body = '';
  let j = i + 1;
  let cut: number | undefined;
  for (; j < lines.length && j < i + 200; j++) {
    const text = lines[j]!.text;
    if (text === '' || HEADER.test(text)) break;
    // rustc's `help:` at the margin opens a suggestion (the fixed line, `++++` under it): what to try, not
    // what went wrong; the error, its snippet and its `= note:` / `= help:` lines end above it.
    if (cut === undefined && SUGGESTION.test(text)) cut = lines[j - 1]!.n;
    if (cut !== undefined) continue;
    body += text + '\n';
    const a: RegExpExecArray | null = arrow ? null : ARROW.exec(text);
    if (a) {
      arrow = a;
      arrowN = lines[j]!.n;
    } else if (!SNIPPET.test(text) && text.trim() !== '...') related.push(lines[j]!.n);
  }
  if (!arrow) return { signal: null, end: j };
  const clip = CLIPPY.exec(body);
  const lint = clip ? (clip[1] ?? clip[2]!).replace(/-/g, '_') : undefined;
  const signal: Signal = {
    kind: 'diagnostic',
    path: arrow[1]!,
    line: Number(arrow[2]),
    column: Number(arrow[3]),
    message: code ? `${code}: ${message}` : lint ? `clippy::${lint}: ${message}` : message!,
    tool: 'cargo',
    severity: severity as 'error' | 'warning',
    category: categoryOf(code, message + '\n' + body, clip !== null),
    weight: severity === 'error' ? 1.0 : 0.3,
    logLine: arrowN,
    related,
  };
  if (cut !== undefined) signal.blockEnd = cut;
  return { signal, end: j };
}

/** The panic message and assertion lines under `panicked at …:`, up to the backtrace or the next block. */
function panicMessage(lines: readonly LogLine[], from: number): LogLine[] {
  const out: LogLine[] = [];
  for (let j = from; j < lines.length && out.length < 30; j++) {
    const text = lines[j]!.text;
    if (text === '' || text.startsWith('note: ') || text === 'stack backtrace:' || text.startsWith('thread ')) break;
    out.push(lines[j]!);
  }
  return out;
}

/** Joins an old-style multi-line panic into the single-line shape PANIC_OLD reads. */
function oldMultiline(lines: readonly LogLine[], i: number): { m: RegExpExecArray; msgs: LogLine[] } | null {
  const open = PANIC_OLD_OPEN.exec(lines[i]!.text);
  if (!open) return null;
  for (let j = i + 1; j < lines.length && j <= i + 30; j++) {
    const close = PANIC_OLD_CLOSE.exec(lines[j]!.text);
    if (!close) continue;
    const m = PANIC_OLD.exec(`thread '${open[1]}' panicked at '${open[2]}', ${close[2]}:${close[3]}:${close[4]}`);
    return m ? { m, msgs: lines.slice(i + 1, j + 1) } : null;
  }
  return null;
}

function panicSignal(lines: readonly LogLine[], i: number, test: string | undefined): Signal | null {
  const text = lines[i]!.text;
  const nu = PANIC_NEW.exec(text);
  const multi = nu || PANIC_OLD.test(text) ? null : oldMultiline(lines, i);
  const old = nu ? null : (multi?.m ?? PANIC_OLD.exec(text));
  if (!nu && !old) return null;
  const msgs = nu ? panicMessage(lines, i + 1) : (multi?.msgs ?? []);
  const [thread, path, line, column] = nu ? [nu[1]!, nu[2]!, nu[3]!, nu[4]!] : [old![1]!, old![3]!, old![4]!, old![5]!];
  const message = nu ? (msgs[0]?.text ?? text) : old![2]!;
  const located = { path, line: Number(line), column: Number(column), tool: 'cargo', logLine: lines[i]!.n };
  const related = msgs.map((l) => l.n);
  // libtest names the panicking thread after the test; any other thread is the program itself crashing.
  const name = test ?? (thread !== 'main' && thread.includes('::') ? thread : undefined);
  if (name) {
    return { kind: 'test', symbol: name, message, category: 'test', weight: 0.9, ...located, related };
  }
  return { kind: 'frame', symbol: thread, message, weight: 0.6, ...located, related };
}

/** Reads rustc/cargo/clippy diagnostics (`error[E0308]: …` + `--> src/lib.rs:12:5`) and `cargo test` panics. */
export const cargoMatcher: Matcher = {
  id: 'cargo',
  extract(lines) {
    const signals: Signal[] = [];
    let test: string | undefined;
    let testHeader: number | undefined;
    let failedLines = 0;
    for (let i = 0; i < lines.length; i++) {
      const { n, text } = lines[i]!;
      if (text.length > MAX_LINE) continue;
      if (text.startsWith('test ') && failedLines < MAX_FAILED_LINES && TEST_FAILED.test(text)) {
        // It names the test that failed; the panic under `---- x stdout ----` says why (and locates it).
        signals.push({ kind: 'diagnostic', message: text, tool: 'cargo', category: 'test', severity: 'error', weight: 0.6, logLine: n, blockEnd: n });
        failedLines++;
        continue;
      }
      const h = HEADER.exec(text);
      if (h) {
        test = undefined;
        if (SUMMARY.test(h[3]!)) continue;
        if (h[1] === 'error' && !h[2] && RESOLUTION.test(h[3]!)) {
          signals.push({ kind: 'diagnostic', message: text, tool: 'cargo', category: 'dependency', weight: 0.8, logLine: n });
          continue;
        }
        const { signal, end } = readDiagnostic(lines, i, h);
        if (signal) signals.push(signal);
        i = end - 1;
        continue;
      }
      const block = TEST_BLOCK.exec(text);
      if (block) {
        test = block[1];
        testHeader = n;
        continue;
      }
      if (text.startsWith('thread ')) {
        const signal = panicSignal(lines, i, test);
        // libtest's `---- tests::x stdout ----` above the panic names the test: the block starts there.
        if (signal && test && testHeader !== undefined) signal.related = [testHeader, ...(signal.related ?? [])];
        if (signal) signals.push(signal);
        test = undefined;
        testHeader = undefined;
      }
    }
    return signals;
  },
};
