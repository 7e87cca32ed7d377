import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';
import { isLibraryPath, parseV8FrameBody } from './frames-v8.js';

/** Longer lines are bundles or serialized blobs, not a Karma report line: skipping them bounds the regexes. */
const MAX_LINE = 2000;
/** Lines of one failure kept as related: the message and the stack's first frames. */
const MAX_BLOCK = 30;
// The progress and dots reporters: `Chrome Headless 156.0.0.0 (Linux 0.0.0) ms parses hours FAILED`, the
// browser's name and version, its platform in parentheses, then the suite and spec names.
const FAILED = /^([A-Z][\w.]*(?: [\w.]+){0,4} \([^()]{1,80}\)) (.+) FAILED$/;
// The message and the stack follow, indented by a tab (or spaces once a CI log viewer has expanded it).
const INDENTED = /^(?:\t|\s{2,})\S/;
const AT = /^\s+at (.+)$/;
// Executed lines end the run's report: `Chrome Headless …: Executed 4 of 4 (1 FAILED)`, `TOTAL: 1 FAILED, 3 SUCCESS`.
const SUMMARY = /\): Executed \d+ of \d+|^TOTAL: \d+ FAILED/;

/**
 * Reads Karma's failed specs (`<Browser> (<platform>) Suite spec FAILED` with the message and stack indented
 * beneath, as the progress and dots reporters print them for Jasmine, Mocha or QUnit), pinned to the first
 * stack frame outside the test framework: the spec's line for a failed expectation, the throw site otherwise.
 */
export const karmaMatcher: Matcher = {
  id: 'karma',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    const seen = new Set<string>();
    for (let i = 0; i < lines.length; i++) {
      const text = lines[i]!.text;
      if (text.length > MAX_LINE || !text.endsWith(' FAILED')) continue;
      const h = FAILED.exec(text);
      if (!h || !INDENTED.test(lines[i + 1]?.text ?? '')) continue;
      const header = lines[i]!.n;
      const related: number[] = [];
      let message: string | undefined;
      let at: { path: string; line: number; column: number } | undefined;
      let j = i + 1;
      for (; j < lines.length && related.length < MAX_BLOCK; j++) {
        const t = lines[j]!.text;
        if (!INDENTED.test(t) || SUMMARY.test(t)) break;
        related.push(lines[j]!.n);
        const a = AT.exec(t);
        if (!a) {
          message ??= t.trim();
          continue;
        }
        if (at) continue;
        const frame = parseV8FrameBody(a[1]!);
        if (!frame) continue;
        // Karma's reporter has already cut the served URL down to a path relative to basePath.
        if (!isLibraryPath(frame.path)) at = { path: frame.path, line: frame.line, column: frame.column };
      }
      i = j - 1;
      // A spec that fails in several browsers is reported once per browser: one signal is enough.
      if (seen.has(h[2]!)) continue;
      seen.add(h[2]!);
      const s: Signal = { kind: 'test', symbol: h[2]!, message: message ?? `${h[2]} failed`, tool: 'karma', category: 'test', weight: 0.9,
        logLine: header, related };
      if (at) Object.assign(s, at);
      out.push(s);
    }
    return out;
  },
};
