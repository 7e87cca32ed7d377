import { describe, expect, it } from 'vitest';
import { stackMatcher } from '../../../src/extract/matchers/stack.js';
import { ghcMatcher } from '../../../src/extract/matchers/ghc.js';
import { hspecMatcher } from '../../../src/extract/matchers/hspec.js';
import { logLines } from '../../helpers/log.js';

describe('stackMatcher', () => {
  it("reads `stack build`'s closing report as a compile failure of the package, and GHC's error above it keeps the pin", () => {
    const log = logLines('fixtures/recorded/haskell/stack-build-type-error.log');
    const [s, ...rest] = stackMatcher.extract(log);
    expect(rest).toEqual([]);
    expect(s).toMatchObject({ kind: 'diagnostic', symbol: 'slug-0.1.0.0', message: 'stack: building slug-0.1.0.0 failed (exit 1)', category: 'compile',
      weight: 0.3 });
    expect(s!.path).toBeUndefined();
    expect(log.find((l) => l.n === s!.logLine)!.text).toMatch(/^--  While building package slug-0\.1\.0\.0 \(scroll up/);
    expect(ghcMatcher.extract(log).map((g) => [g.path, g.line, g.column])).toEqual([['/home/runner/work/slug/slug/src/Slug.hs', 15, 21]]);
  });

  it("reads `stack test`'s report as the failed suite, beside hspec's pinned example", () => {
    const log = logLines('fixtures/recorded/haskell/stack-test.log');
    expect(stackMatcher.extract(log)).toMatchObject([{ kind: 'test', symbol: 'slug-0.1.0.0', message: 'stack: the spec suite of slug-0.1.0.0 failed (exit 1)',
      category: 'test' }]);
    expect(hspecMatcher.extract(log).filter((h) => h.path).map((h) => [h.path, h.line])).toEqual([['test/Spec.hs', 10]]);
  });

  it('returns nothing for other tools', () => {
    expect(stackMatcher.extract(logLines('fixtures/recorded/haskell/ghc-type-error.log'))).toEqual([]);
    expect(stackMatcher.extract(logLines('fixtures/recorded/haskell/hspec.log'))).toEqual([]);
  });
});
