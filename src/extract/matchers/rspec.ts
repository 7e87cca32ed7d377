import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

const MAX_LINE = 2000;
const MAX_RELATED = 40;
const EXAMPLE = /^\s+\d+\) (\S.*)$/;
const FAILURE = /^\s+Failure\/Error: (.*)$/;
// Ruby < 3.4 quotes the method as `name'; 3.4 as 'Class#name'.
const FRAME = /^\s+# ([^\s:]+):(\d+):in [`'](.*)'$/;
const RERUN = /^rspec ([^\s:]+):(\d+) # (.+)$/;
// An exception class on its own line (`KeyError:`, `NoMethodError:`) with the message indented below it.
const REBAR3_EUNIT = /^[a-z]\w*:\w+\/\d+$/;
const HSPEC_LOCATION = /\.l?hs:\d+:\d+: ?$/;
const EXC_CLASS = /^\s+([A-Z][\w:]*):$/;

interface Block { title: string; n: number; lines: LogLine[] }

/** True for frames in installed gems or Ruby itself: kept as evidence, never where a PR's bug lives. */
function isLibrary(path: string): boolean {
  return path.includes('/gems/') || path.startsWith('<internal:') || /\/lib\/ruby\/\d/.test(path) || path.startsWith('/usr/lib/ruby/');
}

/** `block (2 levels) in products` → `products`; `Catalog::Importer#price_of` → `price_of`. */
function methodName(raw: string): string | undefined {
  const name = raw.replace(/^block (?:\(\d+ levels\) )?in /, '').replace(/^.*[#.]/, '');
  return name.startsWith('<') ? undefined : name;
}

/** One failure block → its test signal (message = error class + text, or expected/got) and the frames. */
function flush(b: Block, out: Signal[], byTitle: Map<string, Signal>): void {
  // Jasmine numbers its failures the same way, with `Message:` under the title: jasmine.ts reads those.
  if (b.lines[0]?.text.trim() === 'Message:') return;
  const frames: { n: number; path: string; line: number; fn: string | undefined; text: string }[] = [];
  const message: LogLine[] = [];
  let failureLine: number | undefined;
  for (const l of b.lines) {
    const f = FRAME.exec(l.text);
    if (f) frames.push({ n: l.n, path: f[1]!, line: Number(f[2]), fn: methodName(f[3]!), text: l.text.trim() });
    else if (failureLine === undefined && FAILURE.test(l.text)) failureLine = l.n;
    else if (failureLine !== undefined && !frames.length && l.text.trim() !== '' && message.length < MAX_RELATED) message.push(l);
  }
  const text = message.map((l) => l.text.trim()).filter((t) => !t.startsWith('(compared using'));
  let summary = text[0] ?? b.title;
  if (EXC_CLASS.test(message[0]?.text ?? '') && text[1]) summary = `${text[0]} ${text[1]}`;
  else if (summary.startsWith('expected:') && text[1]?.startsWith('got:')) summary = `${summary} ${text[1]}`;
  // The spec file frame is where the expectation sits; library frames come before it in the trace.
  const at = frames.find((f) => f.path.endsWith('_spec.rb'));
  const signal: Signal = {
    kind: 'test',
    symbol: b.title,
    message: summary,
    tool: 'rspec',
    category: 'test',
    weight: 0.9,
    logLine: message[0]?.n ?? b.n,
    // The `Failure/Error:` line quotes the code that failed; the lines under it say how.
    related: [...(failureLine === undefined ? [] : [failureLine]), ...message.map((l) => l.n)],
  };
  if (at) Object.assign(signal, { path: at.path, line: at.line });
  out.push(signal);
  byTitle.set(b.title, signal);
  for (const f of frames) {
    if (f === at) continue;
    const s: Signal = { kind: 'frame', path: f.path, line: f.line, message: f.text, tool: 'rspec',
      weight: isLibrary(f.path) ? 0.05 : 0.6, logLine: f.n };
    if (f.fn) s.symbol = f.fn;
    out.push(s);
  }
}

/** Reads RSpec reports: `Failures:` blocks (`1) Desc`, `Failure/Error:`, expected/got, `# ./lib/x.rb:12:in` frames) and `rspec ./spec/x_spec.rb:12 # Desc` lines. */
export const rspecMatcher: Matcher = {
  id: 'rspec',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    const byTitle = new Map<string, Signal>();
    // Pending examples are numbered the same way but listed before `Failures:`; only failures count.
    let inFailures = false;
    let block: Block | null = null;
    let prev = '';
    for (const l of lines) {
      const text = l.text;
      const before = prev;
      prev = text;
      if (text.length > MAX_LINE) continue;
      if (text === 'Failures:') {
        inFailures = true;
        continue;
      }
      if (inFailures && (text.startsWith('Finished in ') || text === 'Failed examples:')) {
        if (block) flush(block, out, byTitle);
        block = null;
        inFailures = false;
      }
      const rerun = text.startsWith('rspec ') ? RERUN.exec(text) : null;
      if (rerun) {
        const known = byTitle.get(rerun[3]!);
        if (known) (known.related ??= []).push(l.n);
        else out.push({ kind: 'test', symbol: rerun[3]!, path: rerun[1]!, line: Number(rerun[2]), message: text,
          tool: 'rspec', category: 'test', weight: 0.9, logLine: l.n });
        continue;
      }
      if (!inFailures) continue;
      const ex = EXAMPLE.exec(text);
      // rebar3 prints EUnit failures in RSpec's shape (`1) mod:test/0`, `Failure/Error:`): eunit.ts reads those.
      // hspec's report has the same `Failures:` / `1) …` shape, with a `file.hs:L:C:` line first: hspec.ts reads it.
      if (ex && (REBAR3_EUNIT.test(ex[1]!) || HSPEC_LOCATION.test(before))) {
        if (block) flush(block, out, byTitle);
        block = null;
        continue;
      }
      if (ex) {
        if (block) flush(block, out, byTitle);
        block = { title: ex[1]!, n: l.n, lines: [] };
      } else if (block) block.lines.push(l);
    }
    if (block) flush(block, out, byTitle);
    return out;
  },
};
