import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

/** One parsed .NET stack frame with a source location. */
export interface DotnetFrame {
  /** `Ns.C.M`, without the parameter list. */
  symbol: string;
  path: string;
  line: number;
  column?: number;
}

// Long lines are serialized blobs, not frames: skip them before any regex runs.
const MAX_FRAME_LINE = 1000;
// `   at Ns.C.M(Args) in /path/C.cs:line 12` (the runtime's format, any language's file).
const RUNTIME = /^\s*at ([^\s(]+)\(.*?\) in (.+):line (\d+)\s*$/;
// xUnit's console runner: `   /path/C.cs(12,0): at Ns.C.M()`.
const XUNIT = /^\s*((?:[A-Za-z]:)?[^\s(:][^(]*\.(?:cs|fs|vb))\((\d+),(\d+)\): at ([^\s(]+)\(/;
// The xUnit runner prefixes every line with `[xUnit.net 00:00:07.26]`.
const XUNIT_PREFIX = /^\[xUnit\.net [\d:.]+\]/;
// Frames a PR never changes: the BCL, test frameworks and assertion libraries.
const LIBRARY = /^(?:System|Microsoft|Xunit|NUnit|FluentAssertions|Shouldly|Moq|Castle|MSTest)\./;

/** Parses one frame line; null when it carries no source location. */
export function parseDotnetFrame(text: string): DotnetFrame | null {
  if (text.length > MAX_FRAME_LINE) return null;
  const t = text.replace(XUNIT_PREFIX, '');
  const r = RUNTIME.exec(t);
  if (r) return { symbol: r[1]!, path: r[2]!.trim(), line: Number(r[3]) };
  const x = XUNIT.exec(t);
  if (x) {
    const frame: DotnetFrame = { symbol: x[4]!, path: x[1]!.trim(), line: Number(x[2]) };
    // xUnit prints column 0 when it does not know the column.
    if (Number(x[3]) > 0) frame.column = Number(x[3]);
    return frame;
  }
  return null;
}

/** True for frames in the runtime, test frameworks and assertion libraries. */
export function isDotnetLibraryFrame(symbol: string): boolean {
  return LIBRARY.test(symbol);
}

/** Reads .NET stack frames: `at Ns.C.M() in /path/C.cs:line 12` and xUnit's `C.cs(12,0): at Ns.C.M()`. */
export const dotnetFramesMatcher: Matcher = {
  id: 'dotnet-frame',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    for (const l of lines) {
      // Cheap pre-check: a located .NET frame always has one of these two markers.
      if (!l.text.includes(':line ') && !l.text.includes('): at ')) continue;
      const f = parseDotnetFrame(l.text);
      if (!f) continue;
      const signal: Signal = {
        kind: 'frame',
        path: f.path,
        line: f.line,
        symbol: f.symbol,
        message: l.text.replace(XUNIT_PREFIX, '').trim(),
        tool: 'dotnet-frame',
        weight: isDotnetLibraryFrame(f.symbol) ? 0.05 : 0.6,
        logLine: l.n,
      };
      if (f.column !== undefined) signal.column = f.column;
      out.push(signal);
    }
    return out;
  },
};
