import { describe, expect, it } from 'vitest';
import { swiftcMatcher } from '../../../src/extract/matchers/swiftc.js';
import { gccMatcher } from '../../../src/extract/matchers/gcc.js';
import { diagnose } from '../../../src/diagnose.js';
import { logLines } from '../../helpers/log.js';

// Real Swift compiler output pasted in public issue threads; see fixtures/recorded/swiftc/SOURCE.md.
const R = 'fixtures/recorded/swiftc';
const GLIB = '/home/gery/Downloads/SwiftGtk-main/.build/checkouts/SwiftGLib/Sources/GLib';

describe('swiftcMatcher', () => {
  it('reads `File.swift:line:col: error:` with its source line and caret as related', () => {
    const log = logLines(`${R}/swiftgtk-47-swift-build.log`);
    const signals = swiftcMatcher.extract(log);
    expect(signals.map((s) => [s.path, s.line, s.column, s.category, s.severity])).toEqual([
      [`${GLIB}/MainLoop.swift`, 51, 38, 'compile', 'error'],
      [`${GLIB}/List.swift`, 10, 18, 'compile', 'error'],
      [`${GLIB}/List.swift`, 18, 11, 'compile', 'error'],
      [`${GLIB}/List.swift`, 19, 11, 'compile', 'error'],
      [`${GLIB}/MainLoop.swift`, 11, 18, 'compile', 'error'],
      [`${GLIB}/MainLoop.swift`, 33, 18, 'compile', 'error'],
    ]);
    expect(signals[0]!.message).toBe("cannot find type 'MainContext' in scope");
    expect(signals[0]!.related).toEqual([2, 3]);
    // A SwiftPM dependency's checkout is not this repository's source: it weighs less than the project's own error would.
    expect(signals[0]!.weight).toBeLessThan(1);
    expect(gccMatcher.extract(log)).toEqual([]);
  });

  it('quotes each diagnostic with its excerpt as evidence, category compile (diagnose, no repository)', async () => {
    const d = await diagnose({ log: `${R}/swiftgtk-47-swift-build.log` });
    expect(d.category).toBe('compile');
    expect(d.evidence.slice(0, 3).map((e) => [e.line, e.text])).toEqual([
      [1, `${GLIB}/MainLoop.swift:51:38: error: cannot find type 'MainContext' in scope`],
      [2, '    @inlinable static var `default`: MainContext { defaultContext() }'],
      [3, '                                     ^~~~~~~~~~~'],
    ]);
  });

  it("reads SwiftPM's swiftbuild form `error: File.swift:line:col message`", async () => {
    const signals = swiftcMatcher.extract(logLines(`${R}/spm-9110-swiftbuild.log`));
    expect(signals.map((s) => [s.path!.replace(/^.*\/automerge-swift\//, ''), s.line, s.column, s.message])).toEqual([
      ['AutomergeUniffi/automerge.swift', 14, 23, "cannot find type 'RustBuffer' in scope"],
      ['AutomergeUniffi/automerge.swift', 38, 23, "cannot find type 'ForeignBytes' in scope"],
      ['AutomergeUniffi/automerge.swift', 52, 22, "cannot find type 'RustBuffer' in scope"],
    ]);
    const d = await diagnose({ log: `${R}/spm-9110-swiftbuild.log` });
    expect(d.category).toBe('compile');
    expect(d.evidence.map((e) => e.line)).toEqual([4, 5, 6]);
  });

  it('leaves XCTest assertions (`File.swift:7: error: -[Suite test] :`) to xctest.ts, and other tools alone', () => {
    expect(swiftcMatcher.extract(logLines('fixtures/recorded/xcodebuild/nimble-372-swift-test.log'))).toEqual([]);
    expect(swiftcMatcher.extract(logLines('fixtures/recorded/swift/mixed-xctest-swift-testing-linux.log'))).toEqual([]);
    expect(swiftcMatcher.extract(logLines('fixtures/recorded/xcodebuild/raw_kiwi_compilation_fail.txt'))).toEqual([]);
  });
});
