import { describe, expect, it } from 'vitest';
import { doctestMatcher } from '../../../src/extract/matchers/doctest.js';
import { pythonFramesMatcher } from '../../../src/extract/matchers/frames-python.js';
// @ts-expect-error plain ESM helper shared with the benchmark
import { evaluateCase } from '../../../scripts/eval-cases.mjs';
import { diagnoseWithTrace } from '../../../src/diagnose.js';
import { logLines } from '../../helpers/log.js';
import { hasWildLog, wildLineNo, wildLog } from '../../helpers/wild.js';
import { diagnose } from '../../../src/diagnose.js';

describe('doctestMatcher', () => {
  it("reads a failing example's `Expected:`/`Got:` as a test of the function whose docstring holds it (statistics.median_low)", () => {
    const log = logLines('fixtures/logs/python-doctest-statistics-median-low-index/log.txt');
    const [s, ...rest] = doctestMatcher.extract(log);
    expect(rest).toEqual([]);
    expect(s).toMatchObject({ kind: 'test', line: 581, symbol: 'median_low', tool: 'doctest', category: 'test',
      message: 'doctest of statistics.median_low: median_low([1, 3, 5, 7]): expected 3, got 5' });
    expect(s!.path).toMatch(/\/statistics\.py$/);
    // the example's header is not read as a traceback frame as well
    expect(pythonFramesMatcher.extract(log)).toEqual([]);
  });

  it('reads `Exception raised:` with its traceback, whose frame in the project stays a frame (fractions.limit_denominator)', () => {
    const log = logLines('fixtures/recorded/doctest/fractions.log');
    expect(doctestMatcher.extract(log)).toEqual([
      { kind: 'test', path: '/home/runner/work/fractions/fractions/fractions.py', line: 205, symbol: 'limit_denominator', tool: 'doctest',
        category: 'test', weight: 0.9, logLine: 2, related: [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13], blockEnd: 13,
        message: "doctest of fractions.Fraction.limit_denominator: Fraction('3.141592653589793').limit_denominator(10): ValueError: max_denominator should be at least 1" },
    ]);
    expect(pythonFramesMatcher.extract(log).filter((f) => f.weight > 0.05).map((f) => [f.path, f.line])).toEqual([
      ['/home/runner/work/fractions/fractions/fractions.py', 235],
    ]);
  });

  it("with the PR's diff, the pin is the change in the function the example tests, not the docstring's example line", async () => {
    const r = await evaluateCase('python-doctest-statistics-median-low-index', diagnoseWithTrace, {});
    expect(r.diagnosis.findings[0]).toMatchObject({ file: 'statistics.py', line: 592 });
    const bare = await evaluateCase('python-doctest-statistics-median-low-index', diagnoseWithTrace, { noBase: true });
    expect(bare.diagnosis.findings[0]).toMatchObject({ file: 'statistics.py', line: 581 });
  });
});

const SKLEARN = 'travis-dissection-scikit-learn-nose-doctest-truncated';

describe.skipIf(!hasWildLog(SKLEARN))("unittest's DocTestCase report under nose (scikit-learn's Travis job, a mirror log)", () => {
  it('quotes the first failing example down to its dashed rule, not the examples that failed for want of it', async () => {
    const lines = (await diagnose({ log: wildLog(SKLEARN) })).evidence.map((e) => e.line);
    const first = wildLineNo(SKLEARN, /^File ".*_split\.py", line 671, in /);
    const raised = wildLineNo(SKLEARN, /^ {4}TypeError: __init__\(\) got multiple values for argument 'n_folds'/);
    expect(lines).toContain(first);
    expect(lines).toContain(raised);
    // the next example fails only because the first did not bind `skf`
    expect(lines).not.toContain(wildLineNo(SKLEARN, /^ {4}NameError: name 'skf' is not defined/));
  });
});
