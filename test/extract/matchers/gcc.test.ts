import { describe, expect, it } from 'vitest';
import { gccMatcher } from '../../../src/extract/matchers/gcc.js';
import { logLines } from '../../helpers/log.js';

const log = (c: string) => logLines(`fixtures/logs/${c}/log.txt`);

describe('gccMatcher', () => {
  it('reads errors and weaker warnings with the function named by `In function ‘f’:`', () => {
    expect(gccMatcher.extract(log('gcc-compile-error'))).toEqual([
      {
        kind: 'diagnostic',
        path: 'src/buf.c',
        line: 34,
        column: 16,
        symbol: 'buf_reset',
        message: 'unused variable ‘old’ [-Wunused-variable]',
        tool: 'gcc',
        severity: 'warning',
        category: 'compile',
        weight: 0.3,
        logLine: 2,
        related: [1],
        // The diagnostic ends with its source excerpt (`34 |   code`, `   |   ^~~`).
        blockEnd: 4,
      },
      {
        kind: 'diagnostic',
        path: 'src/main.c',
        line: 16,
        column: 36,
        symbol: 'main',
        message: '‘struct buf’ has no member named ‘len’',
        tool: 'gcc',
        severity: 'error',
        category: 'compile',
        weight: 1,
        logLine: 6,
        related: [5],
        blockEnd: 8,
      },
    ]);
  });

  it('heads a diagnostic with its include chain and template trail, and ends it with its excerpt (openmonero, GitLab)', () => {
    const signals = gccMatcher.extract(logLines('fixtures/wild/gitlab-openmonero-docker-static-assert/log.txt'));
    expect(signals[0]).toMatchObject({ path: '/opt/monero/contrib/epee/include/span.h', line: 165, logLine: 65, related: [55, 56, 57, 58, 59, 60, 61, 62, 63, 64], blockEnd: 67 });
  });

  it('reads every error of a make -k build (C locale quotes), notes kept as related', () => {
    const signals = gccMatcher.extract(log('make-gcc-errors'));
    expect(signals.map((s) => [s.path, s.line, s.column, s.symbol, s.logLine, s.related])).toEqual([
      ['src/lexer.c', 26, 40, 'next_token', 4, [3, 7]],
      ['src/eval.c', 22, 37, 'eval', 11, [10, 14]],
    ]);
    expect(signals[0]!.message).toBe("'TOK_STAR' undeclared (first use in this function)");
  });

  it('calls a missing system header a dependency failure', () => {
    expect(gccMatcher.extract(log('gcc-missing-header'))).toEqual([
      expect.objectContaining({
        path: 'src/report.c',
        line: 1,
        column: 10,
        message: 'jansson.h: No such file or directory',
        severity: 'error',
        category: 'dependency',
        logLine: 1,
      }),
    ]);
  });

  it('reads an undefined reference as a compile error about the symbol, in the source the object came from', () => {
    expect(gccMatcher.extract(log('clang-link-error'))).toEqual([
      {
        kind: 'diagnostic',
        path: 'main.c',
        symbol: 'parse_line',
        message: "undefined reference to `parse_line'",
        tool: 'gcc',
        severity: 'error',
        category: 'compile',
        weight: 1,
        logLine: 28,
        related: [27],
      },
    ]);
  });

  it('finds nothing in mypy (same `path:12: error:` shape), Go or rustc output', () => {
    for (const c of ['mypy-arg-type', 'mypy-return-optional', 'go-vet-printf', 'cargo-type-mismatch', 'go-panic-nil-map']) {
      expect(gccMatcher.extract(log(c))).toEqual([]);
    }
  });

  it("leaves a test runner's labelled place to the evidence finder (cmocka's `[   LINE   ] --- t.c:41: error: Failure!`)", () => {
    // The step built cleanly; the only `file:line: error:` shape in its log is cmocka's failed assertion.
    expect(gccMatcher.extract(log('cmocka-inih-inline-comment-without-space'))).toEqual([]);
  });
});
