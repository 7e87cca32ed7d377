import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

/** Longer lines are serialized blobs, not a Swift Testing event: skipping them bounds the regexes. */
const MAX_LINE = 4000;
// swift-testing's console output (`swift test` since Swift 6, beside XCTest's own lines, which xctest.ts reads):
// `✘ Test name() recorded an issue at File.swift:120:6: Caught error: …`; a parameterised test names its
// argument first (`recorded an issue with 1 argument value → 2 at File.swift:…`).
const ISSUE = /^✘ Test (.+?) recorded an issue(?: with .+?)? at (\S+?\.swift):(\d+):(\d+): (.+)$/;
const TEST_FAILED = /^✘ Test (.+?) failed after /;

/**
 * Reads Swift Testing's recorded issues (`✘ Test f() recorded an issue at File.swift:line:col: message`), pinned
 * to the expectation's line, with the test's `✘ Test f() failed after …` line as related.
 */
export const swiftTestingMatcher: Matcher = {
  id: 'swift-testing',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    const byTest = new Map<string, Signal>();
    for (const { n, text } of lines) {
      if (text.length > MAX_LINE || !text.startsWith('✘ Test ')) continue;
      const m = ISSUE.exec(text);
      if (m) {
        const s: Signal = { kind: 'test', symbol: m[1]!, path: m[2]!, line: Number(m[3]), column: Number(m[4]), message: m[5]!.trim(),
          tool: 'swift-testing', category: 'test', weight: 0.9, logLine: n, related: [] };
        out.push(s);
        if (!byTest.has(m[1]!)) byTest.set(m[1]!, s);
        continue;
      }
      const f = TEST_FAILED.exec(text);
      if (f) byTest.get(f[1]!)?.related!.push(n);
    }
    return out;
  },
};
