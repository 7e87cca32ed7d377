import { describe, expect, it } from 'vitest';
import { phpMatcher } from '../../../src/extract/matchers/php.js';
import { logLines } from '../../helpers/log.js';

describe('phpMatcher', () => {
  it('reads a `php -l` parse error as a compile diagnostic, with `Errors parsing` as related', () => {
    expect(phpMatcher.extract(logLines('fixtures/recorded/phpunit/php-lint.log'))).toEqual([
      { kind: 'diagnostic', path: 'src/Broken.php', line: 8, message: 'Parse error: syntax error, unexpected token "return"', tool: 'php',
        severity: 'error', category: 'compile', weight: 1, logLine: 1, related: [2] },
    ]);
  });

  it('reads an uncaught exception as a run-time failure with its stack trace', () => {
    const signals = phpMatcher.extract(logLines('fixtures/recorded/phpunit/php-uncaught.log'));
    expect(signals[0]).toMatchObject({ path: '/home/runner/work/cart/cart/src/Cart.php', line: 41, category: 'test',
      message: 'Fatal error: Uncaught InvalidArgumentException: empty discount code', related: [2, 3, 4, 5] });
    expect(signals[1]).toMatchObject({ kind: 'frame', path: '/home/runner/work/cart/cart/run.php', line: 7, logLine: 3 });
    expect(signals).toHaveLength(2);
  });

  it('returns nothing for other tools', () => {
    expect(phpMatcher.extract(logLines('fixtures/recorded/phpunit/phpunit-failures-errors.log'))).toEqual([]);
    expect(phpMatcher.extract(logLines('fixtures/logs/mypy-arg-type/log.txt'))).toEqual([]);
  });
});
