import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';
import { servedSourcePath } from './served-source-path.js';

/** One parsed V8 stack frame: `fn (path:line:col)` or a bare `path:line:col`. */
export interface V8Frame {
  symbol?: string;
  path: string;
  line: number;
  column: number;
}

// Lines longer than this are minified bundles or serialized blobs, not frames: skipping them keeps the
// lazy quantifiers below from going quadratic.
const MAX_FRAME_LINE = 2000;
const AT_LINE = /^\s*at (.+)$/;
const LOCATION = /^(.+?):(\d+):(\d+)$/;
/** A native backtrace's numbered frame (Rust's `   8: worker`, `  4:  0x55d… - name`), whose location follows on the next line. */
const NATIVE_FRAME = /^\s*\d+:\s+\S/;

/**
 * Parses the part of a frame after `at ` (node:test's TAP `stack:` lines have no `at`, so they call this
 * directly). Returns null for frames without a location (`Array.map (<anonymous>)`, `Promise.all (index 0)`).
 */
export function parseV8FrameBody(body: string): V8Frame | null {
  if (body.length > MAX_FRAME_LINE) return null;
  let rest = body.startsWith('async ') ? body.slice(6) : body;
  let symbol: string | undefined;
  if (rest.endsWith(')')) {
    const open = rest.indexOf(' (');
    if (open <= 0) return null;
    symbol = rest.slice(0, open);
    rest = rest.slice(open + 2, -1);
  }
  // eval frames nest a second location inside: no single file:line to point at.
  if (rest.includes('(') || rest.includes(', ')) return null;
  const m = LOCATION.exec(rest);
  if (!m) return null;
  let path = m[1]!;
  // ESM frames name files by URL; every other tool prints a path, so the repo mapping expects one.
  if (path.startsWith('file://')) {
    try {
      path = decodeURIComponent(new URL(path).pathname);
    } catch {
      return null;
    }
  } else path = servedSourcePath(path) ?? path;
  if (path === '<anonymous>' || path === '') return null;
  return { symbol, path, line: Number(m[2]), column: Number(m[3]) };
}

/** Parses a whole `    at …` line, or returns null when the line is not a located V8 frame. */
export function parseV8Frame(text: string): V8Frame | null {
  if (text.length > MAX_FRAME_LINE) return null;
  const m = AT_LINE.exec(text);
  return m ? parseV8FrameBody(m[1]!) : null;
}

/** True for frames in dependencies or in Node itself: evidence, but never where a PR's bug lives. */
export function isLibraryPath(path: string): boolean {
  return (
    path.startsWith('node:') ||
    path.startsWith('internal/') ||
    path.includes('/node_modules/') ||
    path.includes('\\node_modules\\') ||
    path.startsWith('node_modules/')
  );
}

/** A frame signal in the shared shape; other JS matchers use it for their own frame formats. */
export function frameSignal(frame: V8Frame, tool: string, logLine: number, text: string): Signal {
  const signal: Signal = {
    kind: 'frame',
    path: frame.path,
    line: frame.line,
    column: frame.column,
    message: text.trim(),
    tool,
    weight: isLibraryPath(frame.path) ? 0.05 : 0.6,
    logLine,
  };
  if (frame.symbol) signal.symbol = frame.symbol;
  return signal;
}

/** Reads V8 stack frames (`at fn (path:line:col)`, `at path:line:col`, file:// URLs, node: internals). */
export const v8FramesMatcher: Matcher = {
  id: 'v8-frame',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    for (const [i, l] of lines.entries()) {
      // Cheap pre-check: almost no log line contains "at ", so most never reach a regex.
      if (!l.text.includes('at ')) continue;
      // under a numbered frame (`   8: worker`) the `at path:line:col` is a native backtrace's (Rust's), not V8's
      if (i > 0 && NATIVE_FRAME.test(lines[i - 1]!.text)) continue;
      const frame = parseV8Frame(l.text);
      if (frame) out.push(frameSignal(frame, 'v8-frame', l.n, l.text));
    }
    return out;
  },
};
