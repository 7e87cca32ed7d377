import { describe, expect, it } from 'vitest';
import { cargoMatcher } from '../../../src/extract/matchers/cargo.js';
import { logLines } from '../../helpers/log.js';

const log = (c: string) => logLines(`fixtures/logs/${c}/log.txt`);

describe('cargoMatcher', () => {
  it('puts the location on the --> line and keeps the header and notes as related, not the snippet', () => {
    expect(cargoMatcher.extract(log('cargo-type-mismatch'))).toEqual([
      {
        kind: 'diagnostic',
        path: 'src/lib.rs',
        line: 40,
        column: 5,
        message: 'E0308: mismatched types',
        tool: 'cargo',
        severity: 'error',
        category: 'compile',
        weight: 1,
        logLine: 3,
        // The `help: try wrapping …` suggestion under the note is what to try, not the error: the block ends above it.
        related: [2, 11, 12],
        blockEnd: 12,
      },
    ]);
  });

  it('pins the call site, not the `function defined here` note, after a signature change', () => {
    const signals = cargoMatcher.extract(log('cargo-signature-change'));
    expect(signals).toHaveLength(1);
    expect(signals[0]).toMatchObject({
      path: 'src/server.rs',
      line: 15,
      column: 16,
      message: 'E0061: this function takes 2 arguments but 1 argument was supplied',
      category: 'compile',
      logLine: 25,
    });
    // The note's own --> line (src/config.rs:9:8) is evidence of the same diagnostic.
    expect(signals[0]!.related).toEqual([24, 30, 31]);
    // The block ends above `help: provide the argument` and its suggested call.
    expect(signals[0]!.blockEnd).toBe(34);
  });

  it('calls a clippy lint a lint failure and names the lint', () => {
    expect(cargoMatcher.extract(log('cargo-clippy-lint'))).toEqual([
      {
        kind: 'diagnostic',
        path: 'src/lib.rs',
        line: 27,
        column: 14,
        message: 'clippy::needless_range_loop: the loop variable `i` is only used to index `lines`',
        tool: 'cargo',
        severity: 'error',
        category: 'lint',
        weight: 1,
        logLine: 35,
        related: [34, 40, 41, 42],
        blockEnd: 42,
      },
    ]);
  });

  it('calls an import of a crate that is not in Cargo.toml a dependency failure', () => {
    expect(cargoMatcher.extract(log('cargo-unresolved-crate'))).toEqual([
      expect.objectContaining({
        path: 'src/main.rs',
        line: 4,
        message: 'E0432: unresolved import `serde_json`',
        category: 'dependency',
        logLine: 3,
      }),
    ]);
  });

  it('reads a cargo test panic as a test failure with the left/right lines', () => {
    expect(cargoMatcher.extract(log('cargo-test-assertion')).filter((s) => s.kind === 'test')).toEqual([
      {
        kind: 'test',
        symbol: 'picks_newest_compatible',
        path: 'tests/update.rs',
        line: 12,
        column: 5,
        message: 'assertion `left == right` failed',
        tool: 'cargo',
        category: 'test',
        weight: 0.9,
        logLine: 20,
        // `---- picks_newest_compatible stdout ----` (the block's header), then the message and left/right.
        related: [18, 21, 22, 23],
      },
    ]);
  });

  it("quotes libtest's `test x ... FAILED` line as its own one-line block, without a location", () => {
    const failed = cargoMatcher.extract(log('cargo-test-assertion')).filter((s) => s.kind === 'diagnostic');
    expect(failed).toEqual([
      { kind: 'diagnostic', message: 'test picks_newest_compatible ... FAILED', tool: 'cargo', category: 'test', severity: 'error', weight: 0.6, logLine: 14, blockEnd: 14 },
    ]);
  });

  it('reads a registry resolution failure as a dependency signal without a location', () => {
    const signals = cargoMatcher.extract(log('cargo-offline-no-matching-package'));
    expect(signals).toEqual([
      expect.objectContaining({ kind: 'diagnostic', category: 'dependency', weight: 0.8, logLine: 1 }),
    ]);
    expect(signals[0]!.message).toContain('no matching package named `semver-parser`');
    expect(signals[0]!.path).toBeUndefined();
  });

  it('finds nothing in Go, gcc or mypy output', () => {
    for (const c of ['go-build-type-error', 'go-panic-index', 'gcc-compile-error', 'clang-link-error', 'mypy-arg-type']) {
      expect(cargoMatcher.extract(log(c))).toEqual([]);
    }
  });
});
