import { describe, expect, it } from 'vitest';
import { mochaMatcher } from '../../../src/extract/matchers/mocha.js';
import { logLines } from '../../helpers/log.js';

const log = (c: string) => logLines(`fixtures/logs/${c}/log.txt`);

describe('mochaMatcher', () => {
  it('reads each numbered failure with its full title, message, diff and test frame', () => {
    const signals = mochaMatcher.extract(log('mocha-changed-default'));
    expect(signals).toHaveLength(2);
    expect(signals[0]).toMatchObject({
      kind: 'test',
      symbol: 'postPath puts the year and the slug in the path',
      path: 'test/posts.test.js',
      line: 9,
      column: 12,
      message: 'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:',
      category: 'test',
      weight: 0.9,
      logLine: 11,
    });
    // node's diff (printed unindented), then mocha's `+ expected - actual` and its two lines
    expect(signals[0]!.related).toEqual([14, 15, 17, 18, 19, 20, 22, 23]);
    expect(signals[1]).toMatchObject({ symbol: 'postPath drops accents', line: 14, logLine: 28 });
  });

  it('reads a failed before-all hook at the test file, not the throwing source frame', () => {
    const signals = mochaMatcher.extract(log('mocha-before-hook-typeerror'));
    expect(signals).toHaveLength(1);
    expect(signals[0]).toMatchObject({
      symbol: 'app routes "before all" hook for "serves the health check at the root"',
      message: "TypeError: Cannot read properties of undefined (reading 'endsWith')",
      path: 'test/app.test.js',
      line: 10,
      logLine: 32,
    });
  });

  it('reads a deep-equal diff from mocha 10', () => {
    const [s] = mochaMatcher.extract(log('mocha-deep-equal-merge'));
    expect(s).toMatchObject({ symbol: 'resolveConfig lets the user replace the external list', path: 'test/config.spec.js', line: 17 });
    expect(s!.related).toContain(16);
  });

  it('takes the file from a timeout message when there is no frame', () => {
    const text = [
      '  1 failing',
      '',
      '  1) api',
      '       answers:',
      '     Error: Timeout of 2000ms exceeded. For async tests and hooks, ensure "done()" is called; if returning a Promise, ensure it resolves. (/w/test/api.spec.js)',
    ];
    const [s] = mochaMatcher.extract(text.map((t, i) => ({ n: i + 1, text: t })));
    expect(s).toMatchObject({ symbol: 'api answers', path: '/w/test/api.spec.js', logLine: 3 });
  });

  it('returns nothing for other runners', () => {
    for (const c of ['jest-paginate-off-by-one', 'vitest-changed-default', 'node-test-spec-off-by-one', 'node-test-tap-duration']) {
      expect(mochaMatcher.extract(log(c))).toEqual([]);
    }
  });
});
