import { describe, expect, it } from 'vitest';
import { tscMatcher } from '../../../src/extract/matchers/tsc.js';
import { logLines } from '../../helpers/log.js';

const log = (c: string) => logLines(`fixtures/logs/${c}/log.txt`);

describe('tscMatcher', () => {
  it('reads the plain `file(line,col): error TSxxxx` format', () => {
    expect(tscMatcher.extract(log('tsc-return-type-mismatch'))).toEqual([
      {
        kind: 'diagnostic',
        path: 'src/duration.ts',
        line: 28,
        column: 3,
        message: "TS2322: Type 'string' is not assignable to type 'number'.",
        tool: 'tsc',
        severity: 'error',
        category: 'compile',
        weight: 1,
        logLine: 1,
      },
    ]);
  });

  it('keeps every error of a cascade in log order, with its indented elaboration as related lines', () => {
    const signals = tscMatcher.extract(log('tsc-cascade-errors-one-file'));
    expect(signals.map((s) => [s.path, s.line, s.column, s.logLine, s.related])).toEqual([
      ['src/counter.ts', 7, 20, 1, [2]],
      ['src/counter.ts', 11, 19, 3, [4]],
      ['src/counter.ts', 11, 42, 5, [6]],
      ['src/counter.ts', 16, 24, 7, [8]],
      ['src/counter.ts', 20, 28, 9, [10]],
    ]);
    expect(signals[0]!.message).toBe("TS2322: Type 'Map<any, any>' is not assignable to type 'CountSnapshot'.");
    expect(signals[1]!.message).toBe('TS2349: This expression is not callable.');
  });

  it('reads errors inside a GitHub Actions job log', () => {
    const signals = tscMatcher.extract(log('tsc-signature-change-call-site'));
    expect(signals.map((s) => [s.path, s.line, s.column, s.message, s.logLine])).toEqual([
      ['src/receipt.ts', 15, 62, 'TS2554: Expected 2 arguments, but got 1.', 19],
      ['src/receipt.ts', 17, 45, 'TS2554: Expected 2 arguments, but got 1.', 20],
    ]);
  });

  it('calls TS2307 on a bare package name a dependency problem', () => {
    expect(tscMatcher.extract(log('tsc-missing-package-import'))).toEqual([
      expect.objectContaining({
        path: 'src/schema.ts',
        line: 1,
        column: 19,
        message: "TS2307: Cannot find module 'zod' or its corresponding type declarations.",
        category: 'dependency',
        logLine: 19,
      }),
    ]);
  });

  it('calls TS2307 on a relative path a compile problem', () => {
    const [s, ...rest] = tscMatcher.extract(log('tsc-relative-import-renamed-file'));
    expect(rest).toEqual([]);
    expect(s).toMatchObject({
      path: 'src/report.ts',
      line: 1,
      column: 26,
      message: "TS2307: Cannot find module './utils/csv.js' or its corresponding type declarations.",
      category: 'compile',
    });
  });

  it('reads --pretty output: colours stripped, code frames skipped, related information kept', () => {
    const lines = log('tsc-pretty-missing-argument');
    const signals = tscMatcher.extract(lines);
    expect(signals).toHaveLength(1);
    expect(signals[0]).toMatchObject({
      kind: 'diagnostic',
      path: 'src/notify.ts',
      line: 15,
      column: 3,
      message: 'TS2554: Expected 3 arguments, but got 2.',
      severity: 'error',
      category: 'compile',
      weight: 1,
      logLine: 1,
    });
    // `  src/mailer.ts:10:56` and "An argument for 'body' was not provided.", not the two code frames
    expect(signals[0]!.related).toEqual([6, 9]);
    expect(lines[8]!.text.trim()).toBe("An argument for 'body' was not provided.");
  });

  it('finds nothing in other tools’ output', () => {
    const others = [
      'eslint-no-unused-vars',
      'eslint-eqeqeq-unix-format',
      'eslint-no-undef-compact-format',
      'prettier-check-syntax-error',
    ];
    for (const c of others) {
      expect(tscMatcher.extract(log(c))).toEqual([]);
    }
  });
});
