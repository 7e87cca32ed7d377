import { describe, expect, it } from 'vitest';
import { goPanicMatcher, goSymbol } from '../../../src/extract/matchers/frames-go.js';
import { logLines } from '../../helpers/log.js';

const log = (c: string) => logLines(`fixtures/logs/${c}/log.txt`);
const root = (c: string) => `/home/runner/work/${c}/${c}`;

describe('goPanicMatcher', () => {
  it('reads the frames of a nil-map panic, the panic line kept with the frame that raised it', () => {
    const c = 'go-panic-nil-map';
    expect(goPanicMatcher.extract(log(c))).toEqual([
      {
        kind: 'frame',
        path: `${root(c)}/tally/tally.go`,
        line: 23,
        symbol: 'Counter.Ignore',
        message: `example.com/wordcount/tally.(*Counter).Ignore(...) at ${root(c)}/tally/tally.go:23`,
        tool: 'go-panic',
        weight: 0.6,
        logLine: 5,
        related: [4, 1],
      },
      {
        kind: 'frame',
        path: `${root(c)}/cmd/wordcount/main.go`,
        line: 15,
        symbol: 'main',
        message: `main.main() at ${root(c)}/cmd/wordcount/main.go:15`,
        tool: 'go-panic',
        weight: 0.6,
        logLine: 7,
        related: [6],
      },
    ]);
  });

  it('keeps GOROOT and testing frames of a test panic but weights them down', () => {
    const c = 'go-panic-index';
    const frames = goPanicMatcher.extract(log(c));
    expect(frames.map((f) => [f.symbol, f.line, f.weight])).toEqual([
      ['tRunner.func1.2', 1396, 0.05],
      ['tRunner.func1', 1399, 0.05],
      ['panic', 884, 0.05],
      ['Ring.Samples', 25, 0.6],
      ['Mean', 10, 0.6],
      ['TestMeanAfterWrap', 32, 0.6],
      ['tRunner', 1446, 0.05],
      ['T.Run', 1493, 0.05],
    ]);
    expect(frames[3]).toMatchObject({ path: `${root(c)}/ring/stats.go`, logLine: 34, related: [33, 23] });
    expect(frames[0]!.path).toBe('/usr/lib/go-1.19/src/testing/testing.go');
  });

  it('shortens function lines to the names a grep finds', () => {
    expect(goSymbol('example.com/m/ring.(*Ring).Samples(...)')).toBe('Ring.Samples');
    expect(goSymbol('created by testing.(*T).Run')).toBe('T.Run');
    expect(goSymbol('example.com/m/ring.Mean(0xc00003a738)')).toBe('Mean');
  });

  it('finds nothing in build errors, test failures without a panic, or a Rust backtrace', () => {
    for (const c of ['go-build-type-error', 'go-test-assertion', 'cargo-test-assertion', 'gcc-compile-error']) {
      expect(goPanicMatcher.extract(log(c))).toEqual([]);
    }
  });
});
