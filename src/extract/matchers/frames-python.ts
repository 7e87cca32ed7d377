import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

// Longer lines are data dumps, not frames; capping them keeps every regex below cheap.
const MAX_LINE = 2000;
const FRAME = /^\s*File "([^"]+)", line (\d+)(?:, in (\S.*))?$/;
const TRACEBACK = /^\s*Traceback \(most recent call last\):$/;
// The closing line is flush-left: `KeyError: 'x'`, `pkg.errors.Boom: msg`, or a bare `StopIteration`.
const EXCEPTION = /^([A-Za-z_][\w.]*)(?:: (.*))?$/;
const NO_MODULE = /^No module named '([^']+)'/;
// Frames between tracebacks are bounded so a runaway recursion dump cannot grow `related` without end.
const MAX_RELATED = 50;

/**
 * True for frames in installed packages, the standard library or the interpreter itself: evidence,
 * but never where a PR's bug lives.
 */
export function isPythonLibraryPath(path: string): boolean {
  return (
    path.includes('/site-packages/') ||
    path.includes('/dist-packages/') ||
    path.includes('\\site-packages\\') ||
    /[/\\]lib[/\\](?:python|pypy)\d/.test(path) ||
    path.startsWith('<frozen ') ||
    path.startsWith('<')
  );
}

/** Module name from `No module named 'x.y'`, when the exception is a missing import. */
export function missingModule(excType: string, message: string | undefined): string | undefined {
  if (excType !== 'ModuleNotFoundError' && excType !== 'ImportError') return undefined;
  return NO_MODULE.exec(message ?? '')?.[1];
}

/** A Python frame signal in the shared shape (used for `File "…", line N, in fn`). */
export function pythonFrame(path: string, line: number, symbol: string | undefined, text: string, logLine: number): Signal {
  const signal: Signal = {
    kind: 'frame',
    path,
    line,
    message: text.trim(),
    tool: 'python-frame',
    weight: isPythonLibraryPath(path) ? 0.05 : 0.6,
    logLine,
  };
  if (symbol) signal.symbol = symbol;
  return signal;
}

/** Reads Python tracebacks: `File "path", line N, in fn` frames and the closing `ExcType: message` line. */
export const pythonFramesMatcher: Matcher = {
  id: 'python-frame',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    // Log lines of the frames of the traceback being read; null when not inside one.
    let frames: number[] | null = null;
    for (const { n, text } of lines) {
      if (text.length > MAX_LINE) continue;
      if (TRACEBACK.test(text)) {
        frames = [];
        continue;
      }
      if (text.includes('File "')) {
        const m = FRAME.exec(text);
        if (m) {
          out.push(pythonFrame(m[1]!, Number(m[2]), m[3], text, n));
          if (frames && frames.length < MAX_RELATED) frames.push(n);
          continue;
        }
      }
      // Only a traceback that has shown frames ends in an exception line; elsewhere `Word: text` is prose.
      if (!frames || frames.length === 0 || /^\s/.test(text) || text === '') continue;
      const e = EXCEPTION.exec(text);
      if (e) {
        const excType = e[1]!;
        const module = missingModule(excType, e[2]);
        const signal: Signal = {
          kind: 'diagnostic',
          symbol: module ?? excType,
          message: text,
          tool: 'python-frame',
          weight: module ? 0.8 : 0.5,
          logLine: n,
          related: frames,
        };
        if (module) signal.category = 'dependency';
        out.push(signal);
      }
      frames = null;
    }
    return out;
  },
};
