import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

const MAX_LINE = 4000;
// xcodebuild (Apple XCTest): `/src/Tests/FooTests.m:111: error: -[FooTests testBar] : message`;
// swift-corelibs-xctest (swift test on Linux): `/src/Tests/FooTests.swift:50: error: FooTests.testBar : XCTAssertTrue failed - `.
const FAILURE = /^(\S.*?\.(?:swift|m|mm)):(\d+): error: (?:-\[([\w.]+) (\w+)\]|([\w.]+)\.(\w+)) : (.*)$/;
const CASE_FAILED = /^Test Case '(?:-\[([\w.]+) (\w+)\]|([\w.]+)\.(\w+))' failed \(/;

/** Reads XCTest assertion failures (xcodebuild's `file.m:12: error: -[Class test] : message` and swift test's form). */
export const xctestMatcher: Matcher = {
  id: 'xctest',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    const open = new Map<string, Signal>();
    for (const { n, text } of lines) {
      if (text.length > MAX_LINE) continue;
      const f = text.includes(': error: ') ? FAILURE.exec(text) : null;
      if (f) {
        const suite = (f[3] ?? f[5])!;
        const test = (f[4] ?? f[6])!;
        const s: Signal = { kind: 'test', symbol: test, path: f[1]!, line: Number(f[2]), message: f[7]!.trim() || `${suite}.${test} failed`,
          tool: 'xctest', category: 'test', weight: 0.9, logLine: n, related: [] };
        out.push(s);
        open.set(`${suite} ${test}`, s);
        continue;
      }
      const c = text.startsWith('Test Case ') ? CASE_FAILED.exec(text) : null;
      if (c) open.get(`${c[1] ?? c[3]} ${c[2] ?? c[4]}`)?.related?.push(n);
    }
    return out;
  },
};
