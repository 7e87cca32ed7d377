import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM helper shared with the benchmark
import { evaluateCase } from '../../scripts/eval-cases.mjs';
import { diagnoseWithTrace } from '../../src/diagnose.js';
import { RAISED_UNDER_TEST } from '../../src/locate/from-signals.js';
import { isTestFile } from '../../src/repo/related-files.js';

/**
 * Without a diff, an exception raised in the code a failing test called is pinned at the code's frame,
 * not at the test's line: the recorded node:test run of fixtures/logs/node-test-typeerror-in-source (a
 * TypeError thrown in src/, reached from the test), diagnosed with no --base.
 */
describe('candidatesFromSignals: raised in the code under test', () => {
  it('pins the source frame above the failing test, with no diff', async () => {
    const r = await evaluateCase('node-test-typeerror-in-source', diagnoseWithTrace, { noBase: true });
    const top = r.diagnosis.findings[0];
    expect(top).toBeDefined();
    expect(isTestFile(top.file)).toBe(false);
    expect(r.top1Line).toBe(true);
    const cand = r.trace.candidates.find((c: { file: string; line: number }) => c.file === top.file && c.line === top.line);
    expect(cand.notes).toContain(RAISED_UNDER_TEST);
    // The failing test's own line is still a finding, below it.
    expect(r.diagnosis.findings.slice(1).some((f: { file: string }) => isTestFile(f.file))).toBe(true);
  });

  it("reads pytest's long traceback as one stack from the test function down, though its E lines sit above the raising entry", async () => {
    // fixtures/logs/pytest-keyerror-in-source (recorded pytest 9): `tests/test_orders.py:17:` (the test's
    // entry, folded into the test's report), then `E   KeyError: 'ab-1'`, then `inventory/store.py:16: KeyError`.
    // The E lines are not a second traceback; the entry below them is where the code the test called raised.
    const r = await evaluateCase('pytest-keyerror-in-source', diagnoseWithTrace, { noBase: true });
    const top = r.diagnosis.findings[0];
    expect(`${top.file}:${top.line}`).toBe('inventory/store.py:16');
    const cand = r.trace.candidates.find((c: { file: string; line: number }) => c.file === top.file && c.line === top.line);
    expect(cand.notes).toContain(RAISED_UNDER_TEST);
    expect(r.diagnosis.findings.slice(1).some((f: { file: string }) => f.file === 'tests/test_orders.py')).toBe(true);
  });

  it("leaves a passing test's logged trace alone (jest's captured console.error), real jest log", async () => {
    // fixtures/wild/gha-javascript-jest-2518112250: passing suites print `console.error` traces through
    // src/js/utils/general.js from test files; the failure is the TypeError under shepherd-modal.spec.js.
    const log = 'fixtures/wild/gha-javascript-jest-2518112250/log.txt';
    const { trace, diagnosis } = await diagnoseWithTrace({ log });
    const raised = trace.candidates.filter((c: { notes: string[] }) => c.notes.includes(RAISED_UNDER_TEST));
    expect(raised.map((c: { file: string }) => c.file)).not.toContain('src/js/utils/general.js');
    expect(diagnosis.findings[0]?.file).toBe('test/unit/components/shepherd-modal.spec.js');
  });
});

/**
 * pytest prints an import chain as frames ending in the report's own location (`pkg/sub/__init__.py:5: in
 * <module>` followed by `E   ModuleNotFoundError`, read as a diagnostic). The frame above it only called
 * into that file: it is not the innermost frame, so it does not outrank the report. Signals as the pytest
 * matcher reads the Abjad log of fixtures/real-pins/Abjad-abjad-375673938 (lines 1083-1087), no checkout.
 */
describe('candidatesFromSignals: a frame that calls into the report', () => {
  it('gives the innermost bonus to no frame followed by its own report', async () => {
    const { candidatesFromSignals } = await import('../../src/locate/from-signals.js');
    const message = "ModuleNotFoundError: No module named 'abjad.cli.DoctestScript'";
    const frame = { kind: 'frame' as const, tool: 'pytest', path: 'abjad/tools/abjadbooktools/AbjadBookScript.py', line: 2, message: 'in <module>', weight: 0.6, logLine: 1083 };
    const report = { kind: 'diagnostic' as const, tool: 'pytest', path: 'abjad/cli/__init__.py', line: 5, message, weight: 1, logLine: 1085, category: 'dependency' as const };
    const out = candidatesFromSignals([frame, report], undefined, undefined);
    const f = out.find((c) => c.file === frame.path)!;
    const d = out.find((c) => c.file === report.path)!;
    expect(f.score).toBeLessThan(d.score);
    expect(f.score).toBeCloseTo(0.6);
    // The same frame with no report after it is the innermost one, as before.
    const alone = candidatesFromSignals([frame], undefined, undefined);
    expect(alone[0]!.score).toBeCloseTo(0.85);
  });
});
