import { describe, expect, it } from 'vitest';
import { ghcMatcher } from '../../../src/extract/matchers/ghc.js';
import { logLines } from '../../helpers/log.js';

describe('ghcMatcher', () => {
  it('reads a type error with its bullets, context and excerpt as related', () => {
    const log = logLines('fixtures/recorded/haskell/ghc-type-error.log');
    const [s, ...rest] = ghcMatcher.extract(log);
    expect(rest).toEqual([]);
    expect(s).toMatchObject({ kind: 'diagnostic', path: 'src/Slug/Count.hs', line: 7, column: 55, severity: 'error', category: 'compile',
      message: "Couldn't match type ‘[Char]’ with ‘Int’ In the second argument of ‘(+)’, namely ‘\"1\"’", logLine: 4 });
    const text = (n: number) => log.find((l) => l.n === n)!.text;
    expect(s!.related!.map(text).at(-1)).toBe('  |                                                       ^^^');
    expect(s!.related).toHaveLength(10);
  });

  it('reads a scope error in an Actions log (Setup.hs build)', () => {
    expect(ghcMatcher.extract(logLines('fixtures/recorded/haskell/ghc-scope-error.log'))[0]).toMatchObject({ line: 6, column: 23,
      message: 'Variable not in scope: splitOn :: Char -> String -> t0 a0 Perhaps you meant ‘splitAt’ (imported from Prelude)' });
    expect(ghcMatcher.extract(logLines('fixtures/logs/ghc-type-error-word-count/log.txt'))).toMatchObject([{ path: 'src/Slug/Count.hs', line: 17 }]);
  });

  it('returns nothing for other tools', () => {
    expect(ghcMatcher.extract(logLines('fixtures/recorded/haskell/hspec.log'))).toEqual([]);
    expect(ghcMatcher.extract(logLines('fixtures/logs/gcc-compile-error/log.txt'))).toEqual([]);
  });
});
