import { describe, expect, it } from 'vitest';
import { goMatcher } from '../../../src/extract/matchers/go.js';
import { logLines } from '../../helpers/log.js';

const log = (c: string) => logLines(`fixtures/logs/${c}/log.txt`);

describe('goMatcher', () => {
  it('reads a build error under its `# pkg` header inside an Actions log', () => {
    expect(goMatcher.extract(log('go-build-type-error'))).toEqual([
      {
        kind: 'diagnostic',
        path: 'internal/money/money.go',
        line: 24,
        column: 9,
        message: 'invalid operation: cents * percent (mismatched types int64 and int)',
        tool: 'go',
        severity: 'error',
        category: 'compile',
        weight: 1,
        logLine: 24,
      },
    ]);
  });

  it('calls a vet analyzer finding a lint failure', () => {
    const [s, ...rest] = goMatcher.extract(log('go-vet-printf'));
    expect(rest).toEqual([]);
    expect(s).toMatchObject({
      path: 'report/report.go',
      line: 26,
      column: 2,
      message: 'fmt.Fprintf format %d has arg sorted[len(sorted)-1].Route of wrong type string',
      category: 'lint',
      logLine: 2,
    });
  });

  it('reads a failed test with its t.Errorf line, path relative to the package', () => {
    expect(goMatcher.extract(log('go-test-assertion'))).toEqual([
      {
        kind: 'test',
        symbol: 'TestMake',
        path: 'slug_test.go',
        line: 16,
        message: 'Make("  Go 1.19 released!  ") = "go-1-19-released-", want "go-1-19-released"',
        tool: 'go',
        category: 'test',
        weight: 0.9,
        logLine: 2,
        related: [3],
      },
    ]);
  });

  it('reads a -v run: the failed subtest only, its message printed above the `--- FAIL`', () => {
    expect(goMatcher.extract(log('go-test-subtests-verbose'))).toEqual([
      {
        kind: 'test',
        symbol: 'TestShort/rounds',
        path: 'durfmt_test.go',
        line: 22,
        message: 'Short(59.6s) = "59s", want "1m 0s"',
        tool: 'go',
        category: 'test',
        weight: 0.9,
        logLine: 11,
        related: [6],
      },
    ]);
  });

  it('uses the panic line as the message of a test that panicked', () => {
    expect(goMatcher.extract(log('go-panic-index'))).toEqual([
      {
        kind: 'test',
        symbol: 'TestMeanAfterWrap',
        message: 'panic: runtime error: index out of range [3] with length 3 [recovered]',
        tool: 'go',
        category: 'test',
        weight: 0.9,
        logLine: 22,
      },
    ]);
  });

  it('calls a package no module provides a dependency failure, keeping the `go get` hint', () => {
    expect(goMatcher.extract(log('go-missing-module'))).toEqual([
      {
        kind: 'diagnostic',
        path: 'store/store.go',
        line: 8,
        column: 2,
        message: 'no required module provides package github.com/google/uuid; to add it:',
        tool: 'go',
        severity: 'error',
        category: 'dependency',
        weight: 1,
        logLine: 1,
        related: [2],
      },
    ]);
  });

  it('finds nothing in a panic trace, rustc, gcc or mypy output', () => {
    for (const c of ['go-panic-nil-map', 'cargo-type-mismatch', 'gcc-compile-error', 'make-gcc-errors', 'mypy-arg-type']) {
      expect(goMatcher.extract(log(c))).toEqual([]);
    }
  });
});
