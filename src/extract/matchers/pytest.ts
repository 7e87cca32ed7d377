import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';
import { isPythonLibraryPath, missingModule } from './frames-python.js';
import { MAX_BLOCK_LINES } from '../../limits.js';

const MAX_LINE = 2000;
const MAX_RELATED = 40;
const BANNER = /^={3,} (.+?) ={3,}$/;
// A test's title, centred in underscores: `____ test_x ____`, or `_ test_x[long-params] _` when the title
// nearly fills the terminal's width (pytest then pads with one underscore a side).
const HEADER = /^_+ (.+?) _+$/;
// The separator between the frames of a long traceback: `_ _ _ _ _`, not a title.
const FRAME_SEPARATOR = /^[_ ]+$/;
/** Entries of the short test summary quoted as its block: a person pastes the first ten of a long list. */
const MAX_SUMMARY_ENTRIES = 10;
// `path.py:12: in fn` (a traceback entry), `path.py:12: KeyError` (where it raised), `path.py:12:` (long mode).
const LOCATION = /^([^\s:][^:]*\.py):(\d+):(?: (.*))?$/;
// pytest --tb=native prints plain Python frames inside a section: they locate the test, frames-python emits them.
const NATIVE = /^\s*File "([^"]+)", line (\d+)/;
const DEF = /^\s+(?:async\s+)?def (\w+)\(/;
const CAPTURED = /^-{3,} Captured .* -{3,}$/;
const E_LINE = /^E(?:\s|$)/;
const EXCEPTION = /^([A-Za-z_][\w.]*): (.*)$/;
// pytest-subtests adds `SUBFAILED(x=3.5, count=2) tests/x.py::test_y` (older: `SUBFAIL`) entries to the list.
const SUMMARY = /^(FAILED|ERROR|SUBFAIL(?:ED)?(?:\(.*?\)(?= ))?) (.+?)(?: - (.*))?$/;
// pytest's closing count line, under the summary when -q dropped its banner: `12 failed, 68 passed, 3 deselected in 9.79s`.
const COUNTS = /^(?:\d+ [a-z]+(?: [a-z]+)?, )*\d+ (?:failed|passed|errors?|error)\b.* in [\d.]+ ?s(?:econds)?\b/;
const SETUP = /^ERROR at (?:setup|teardown) of /;

interface Loc { n: number; path: string; line: number; symbol?: string; native?: boolean; text: string }
interface Section { title: string; n: number; locs: Loc[]; e: LogLine[]; marks: number[]; lastDef?: string; body: number[] }

/** The summary's node id (`tests/x.py::Cls::test[a]`) in the form section titles use (`Cls.test[a]`). */
function titleKey(nodeid: string): string {
  const at = nodeid.indexOf('::');
  return at < 0 ? `ERROR collecting ${nodeid}` : nodeid.slice(at + 2).replaceAll('::', '.');
}

/** First E line shaped like `Type: message` (the assertion/exception), else the first E line. */
function errorLine(e: LogLine[]): { text: string; n: number } | undefined {
  const strip = (l: LogLine) => ({ text: l.text.replace(/^E\s*/, ''), n: l.n });
  const exc = e.map(strip).find((l) => EXCEPTION.test(l.text) && !l.text.startsWith('File "'));
  return exc ?? (e[0] ? strip(e[0]) : undefined);
}

function frame(loc: Loc): Signal {
  const s: Signal = { kind: 'frame', path: loc.path, line: loc.line, message: loc.text, tool: 'pytest', logLine: loc.n,
    weight: isPythonLibraryPath(loc.path) ? 0.05 : 0.6 };
  if (loc.symbol) s.symbol = loc.symbol;
  return s;
}

/** Turns one FAILURES/ERRORS section into its test (or collection-error) signal plus traceback frames. */
function flush(sec: Section, out: Signal[], byTitle: Map<string, Signal>): void {
  const err = errorLine(sec.e);
  const related = [...sec.marks, ...sec.e.map((l) => l.n)].slice(0, MAX_RELATED);
  let main: Signal;
  if (sec.title.startsWith('ERROR collecting ')) {
    const exc = err ? EXCEPTION.exec(err.text) : null;
    const module = exc ? missingModule(exc[1]!, exc[2]) : undefined;
    // The import that failed is the innermost entry in the project, not in importlib or a package.
    const own = sec.locs.filter((l) => !isPythonLibraryPath(l.path));
    const at = own[own.length - 1];
    // A collection error's block is its traceback from the first entry in the project down to the E lines
    // (pytest's and importlib's entries above it are plumbing), headed by its title and `ImportError while
    // importing` lines when they sit close enough above to be one block with it.
    const lastE = sec.e[sec.e.length - 1]?.n ?? Infinity;
    const firstOwn = own[0]?.n ?? sec.e[0]?.n ?? sec.n;
    const from = firstOwn - sec.n <= MAX_BLOCK_LINES ? sec.n : firstOwn;
    const whole = [sec.n, ...sec.body].filter((n) => n >= from && n <= lastE).slice(0, MAX_RELATED);
    main = { kind: 'diagnostic', message: err?.text ?? sec.title, tool: 'pytest', severity: 'error', weight: 1,
      category: module ? 'dependency' : 'compile', logLine: at?.n ?? err?.n ?? sec.n, related: [...new Set([...whole, ...related])].sort((a, b) => a - b) };
    if (module) main.symbol = module;
    if (at) Object.assign(main, { path: at.path, line: at.line });
    // N test modules that import the same broken module fail to collect with the same exception, one
    // section after another: the first is the block a person quotes, the rest restate it.
    const key = `collect:${main.message}`;
    if (byTitle.has(key)) main.restatement = true;
    else byTitle.set(key, main);
  } else {
    // Entries run outermost first, so the first one is the test function itself.
    const at = sec.locs[0];
    main = { kind: 'test', symbol: sec.title.replace(SETUP, ''), message: err?.text ?? sec.title, tool: 'pytest',
      category: 'test', weight: 0.9, logLine: err?.n ?? sec.n, related };
    if (at) Object.assign(main, { path: at.path, line: at.line });
  }
  out.push(main);
  byTitle.set(sec.title, main);
  for (const loc of sec.locs) {
    if (loc.native || (loc.path === main.path && loc.line === main.line)) continue;
    out.push(frame(loc));
  }
}

/** Reads pytest reports: FAILURES/ERRORS sections (`>`/`E` lines, `path.py:12: …` entries) and the short summary. */
export const pytestMatcher: Matcher = {
  id: 'pytest',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    const byTitle = new Map<string, Signal>();
    let mode: 'none' | 'sections' | 'summary' = 'none';
    let sec: Section | null = null;
    let captured = false;
    let summary: Signal | undefined;
    const close = () => {
      if (sec) flush(sec, out, byTitle);
      sec = null;
    };
    for (const l of lines) {
      const text = l.text;
      if (text.length > MAX_LINE) continue;
      const banner = text.startsWith('===') ? BANNER.exec(text) : null;
      if (banner) {
        close();
        const name = banner[1]!;
        mode = name === 'FAILURES' || name === 'ERRORS' ? 'sections' : name === 'short test summary info' ? 'summary' : 'none';
        continue;
      }
      if (mode === 'summary') {
        // The run's closing count (`2 failed, 5 passed in 2.34s`, bare under -q) ends the list's block.
        if (summary && COUNTS.test(text)) {
          summary.blockEnd = l.n;
          mode = 'none';
          continue;
        }
        const m = text.startsWith('FAILED ') || text.startsWith('ERROR ') || text.startsWith('SUBFAIL') ? SUMMARY.exec(text) : null;
        if (!m) continue;
        // The list itself is a block (`FAILED tests/x.py::test_y - …`, `ERROR tests/z.py`): it names what
        // failed, to its last entry.
        if (!summary) {
          summary = { kind: 'diagnostic', message: text, tool: 'pytest', severity: 'error', weight: 0.6, logLine: l.n, related: [], blockEnd: l.n };
          out.push(summary);
        } else {
          if (summary.related!.length < MAX_SUMMARY_ENTRIES - 1) summary.related!.push(l.n);
          // The block runs on to the list's end (the evidence bound cuts it): the entries are its lines.
          summary.blockEnd = l.n;
        }
        // A list of modules that failed to import (`ERROR tests/x.py`) says nothing of tests: its category is
        // the collection errors'; a failed test in it makes it a test failure's summary.
        if (m[1] !== 'ERROR' || m[2]!.includes('::')) summary.category = 'test';
        const nodeid = m[2]!;
        const file = nodeid.split('::')[0]!;
        const known = byTitle.get(titleKey(nodeid));
        // A test reported above: the summary entry is the summary's line, not part of the test's block (as a
        // related line it joined the last section's block to the summary printed under it).
        if (known) {
          if (!known.path && file.endsWith('.py')) known.path = file;
          continue;
        }
        const name = nodeid.includes('::') ? titleKey(nodeid) : nodeid;
        const s: Signal = { kind: 'test', symbol: name, message: m[3] ?? text, tool: 'pytest', category: 'test', weight: 0.9, logLine: l.n };
        if (file.endsWith('.py')) s.path = file;
        out.push(s);
        continue;
      }
      if (mode !== 'sections') continue;
      const header = text.startsWith('_') && !FRAME_SEPARATOR.test(text) ? HEADER.exec(text) : null;
      if (header) {
        close();
        sec = { title: header[1]!, n: l.n, locs: [], e: [], marks: [], body: [] };
        captured = false;
        continue;
      }
      if (!sec) continue;
      const s: Section = sec;
      if (CAPTURED.test(text)) captured = true;
      if (captured) continue;
      if (text.trim() !== '' && s.body.length < MAX_RELATED) s.body.push(l.n);
      if (E_LINE.test(text)) s.e.push(l);
      else if (text.startsWith('>')) s.marks.push(l.n);
      else {
        const loc = LOCATION.exec(text) ?? NATIVE.exec(text);
        if (loc) {
          const tail = loc[3];
          const symbol = tail?.startsWith('in ') ? tail.slice(3) : s.lastDef;
          s.locs.push({ n: l.n, path: loc[1]!, line: Number(loc[2]), symbol, native: loc.length === 3, text });
          s.lastDef = undefined;
        } else {
          const def = DEF.exec(text);
          if (def) s.lastDef = def[1];
        }
      }
    }
    close();
    return out;
  },
};
