import { describe, expect, it } from 'vitest';
import { checkRunLogText, isOtherCiFailure } from '../../src/github/check-run-log.js';
import { extractSignals } from '../../src/extract/extract-signals.js';
import { workflowCommandsMatcher } from '../../src/extract/matchers/workflow-commands.js';

const lines = (text: string) => text.split('\n').map((t, i) => ({ n: i + 1, text: t }));

describe('another CI check run as a log', () => {
  const run = {
    id: 9,
    name: 'typecheck',
    head_sha: 'a'.repeat(40),
    conclusion: 'failure',
    app: { slug: 'circleci-checks', name: 'CircleCI Checks' },
    output: { title: '1 error', summary: 'tsc found 1 error', text: null },
  };
  const annotations = [
    { path: 'src/receipt.ts', start_line: 15, end_line: 15, start_column: 62, annotation_level: 'failure', title: 'TS2554', message: 'Expected 2 arguments, but got 1.\nmore, with 100% detail' },
    { path: 'src/a,b:c.ts', start_line: 3, end_line: 4, annotation_level: 'warning', title: 'unused', message: 'x is unused' },
  ];

  it('writes annotations in the workflow-command syntax, failures last, and the matcher reads them back', () => {
    const text = checkRunLogText(run, annotations);
    expect(text).toContain('::error file=src/receipt.ts,line=15,col=62,title=TS2554::Expected 2 arguments, but got 1.%0Amore, with 100%25 detail');
    expect(text.indexOf('::warning')).toBeLessThan(text.indexOf('::error'));
    const signals = workflowCommandsMatcher.extract(lines(text));
    expect(signals).toEqual([
      expect.objectContaining({ path: 'src/a,b:c.ts', line: 3, endLine: 4, severity: 'warning', weight: 0.3 }),
      expect.objectContaining({ kind: 'diagnostic', path: 'src/receipt.ts', line: 15, column: 62, message: 'TS2554: Expected 2 arguments, but got 1.', severity: 'error', category: 'compile', weight: 1, tool: 'annotation' }),
    ]);
    expect(extractSignals(lines(text)).tools).toContain('annotation');
  });

  it('a timed-out run says so', () => {
    expect(checkRunLogText({ ...run, conclusion: 'timed_out' }, [])).toMatch(/timed out/);
  });

  it('diagnoses only other CIs\u2019 failures, never Actions\u2019 own runs or Redline\u2019s', () => {
    expect(isOtherCiFailure(run)).toBe(true);
    expect(isOtherCiFailure({ ...run, conclusion: 'timed_out' })).toBe(true);
    expect(isOtherCiFailure({ ...run, conclusion: 'success' })).toBe(false);
    expect(isOtherCiFailure({ ...run, conclusion: 'cancelled' })).toBe(false);
    expect(isOtherCiFailure({ ...run, app: { slug: 'github-actions' } })).toBe(false);
    expect(isOtherCiFailure({ ...run, name: 'Redline' })).toBe(false);
    expect(isOtherCiFailure({ ...run, app: { slug: 'redline' } }, (u) => u?.login === 'redline[bot]')).toBe(false);
  });
});
