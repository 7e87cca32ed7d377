import { describe, expect, it } from 'vitest';
import { rustBacktraceMatcher } from '../../../src/extract/matchers/frames-rust.js';
import { logLines } from '../../helpers/log.js';

const log = (c: string) => logLines(`fixtures/logs/${c}/log.txt`);

describe('rustBacktraceMatcher', () => {
  it('reads RUST_BACKTRACE=1 frames, the toolchain and core frames weighted down', () => {
    const frames = rustBacktraceMatcher.extract(log('cargo-test-assertion'));
    expect(frames.map((f) => [f.path?.startsWith('/rustc/') ? '/rustc/…' : f.path, f.line, f.weight])).toEqual([
      ['/rustc/…', 689, 0.05],
      ['/rustc/…', 80, 0.05],
      ['/rustc/…', 439, 0.05],
      ['/rustc/…', 394, 0.05],
      ['./tests/update.rs', 12, 0.6],
      ['./tests/update.rs', 8, 0.6],
      ['/rustc/…', 250, 0.05],
      ['/rustc/…', 250, 0.05],
    ]);
    expect(frames[4]).toEqual({
      kind: 'frame',
      path: './tests/update.rs',
      line: 12,
      column: 5,
      symbol: 'update::picks_newest_compatible',
      message: 'update::picks_newest_compatible at ./tests/update.rs:12:5',
      tool: 'rust-backtrace',
      weight: 0.6,
      logLine: 34,
      related: [33],
    });
  });

  it('finds nothing without a `stack backtrace:` section', () => {
    for (const c of ['cargo-type-mismatch', 'go-panic-index', 'gcc-compile-error']) {
      expect(rustBacktraceMatcher.extract(log(c))).toEqual([]);
    }
  });
});
