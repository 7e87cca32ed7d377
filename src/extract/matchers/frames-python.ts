import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';
import { PY_TRACEBACK_HEAD } from '../../evidence/vocabulary.js';
import { isDoctestHeader } from './doctest.js';

// Longer lines are data dumps, not frames; capping them keeps every regex below cheap.
const MAX_LINE = 2000;
const FRAME = /^\s*File "([^"]+)", line (\d+)(?:, in (\S.*))?$/;
// The closing line is flush-left: `KeyError: 'x'`, `pkg.errors.Boom: msg`, or a bare `StopIteration`.
const EXCEPTION = /^([A-Za-z_][\w.]*)(?:: (.*))?$/;
const NO_MODULE = /^No module named '([^']+)'/;
// faulthandler's dump (a segfault, an abort, a timeout in pytest-timeout): `Fatal Python error: Segmentation
// fault` (after whatever the line held, a test's name), then each thread's frames, most recent call FIRST,
// in a form without the comma: `  File "x.py", line 12 in fn`.
const FATAL = /Fatal Python error: (\S.*)$/;
const FAULT_THREAD = /^(Current thread|Thread) 0x[0-9a-fA-F]+ \(most recent call first\):$/;
const FAULT_FRAME = /^\s*File "([^"]+)", line (\d+) in (\S.*)$/;
/** Frames of the crashing thread quoted when none of them is the project's: its top, where it crashed. */
const MAX_FAULT_PLUMBING = 5;
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
    // The faulthandler dump being read: its fatal line's signal, and the crashing thread's signal while its frames are read.
    let fatal: Signal | null = null;
    let crashing: { signal: Signal; ownSeen: boolean } | null = null;
    for (let i = 0; i < lines.length; i++) {
      const { n, text } = lines[i]!;
      if (text.length > MAX_LINE) continue;
      const f = text.includes('Fatal Python error: ') ? FATAL.exec(text) : null;
      if (f) {
        // The fatal line says what crashed; the threads' dumps under it are read below.
        fatal = { kind: 'diagnostic', message: `Fatal Python error: ${f[1]}`, tool: 'python-frame', severity: 'error', weight: 0.9, logLine: n, blockEnd: n };
        out.push(fatal);
        crashing = null;
        frames = null;
        continue;
      }
      if (fatal) {
        const th = FAULT_THREAD.exec(text);
        if (th) {
          crashing = null;
          // Only the thread that crashed is the failure; the others were waiting.
          if (th[1] === 'Current thread') {
            crashing = { signal: { kind: 'diagnostic', message: fatal.message, tool: 'python-frame', severity: 'error', weight: 0.8, logLine: n, related: [], blockEnd: n }, ownSeen: false };
            out.push(crashing.signal);
          }
          continue;
        }
        const ff = FAULT_FRAME.exec(text);
        if (ff) {
          // Most recent call first: the crash site, down to the project's first frame (the test that ran it);
          // pytest's and pluggy's frames under it are the runner, and the other threads were waiting: no
          // frames of theirs, or the pin would go to the outermost caller as in a most-recent-last traceback.
          if (crashing && !crashing.ownSeen && crashing.signal.related!.length < MAX_RELATED) {
            out.push(pythonFrame(ff[1]!, Number(ff[2]), ff[3], text, n));
            const own = !isPythonLibraryPath(ff[1]!);
            if (own || crashing.signal.related!.length < MAX_FAULT_PLUMBING) {
              crashing.signal.related!.push(n);
              crashing.signal.blockEnd = n;
            }
            crashing.ownSeen = own;
          }
          continue;
        }
        if (text.trim() === '') continue;
        fatal = null;
        crashing = null;
      }
      if (PY_TRACEBACK_HEAD.test(text)) {
        frames = [];
        continue;
      }
      if (text.includes('File "')) {
        // doctest's example header has a frame's shape; the doctest matcher reads it as the test it is
        if (isDoctestHeader(lines, i)) continue;
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
