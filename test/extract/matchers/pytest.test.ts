import { describe, expect, it } from 'vitest';
import { pytestMatcher } from '../../../src/extract/matchers/pytest.js';
import { logLines } from '../../helpers/log.js';

const log = (c: string) => logLines(`fixtures/logs/${c}/log.txt`);

describe('pytestMatcher', () => {
  it('reads an assertion failure with its > and E lines and the FAILED summary (Actions log)', () => {
    const signals = pytestMatcher.extract(log('pytest-assert-discount-threshold'));
    expect(signals).toEqual([
      {
        kind: 'test',
        symbol: 'test_top_tier_starts_at_one_hundred',
        path: 'tests/test_cart.py',
        line: 25,
        message: 'AssertionError: assert 95.0 == 90.0',
        tool: 'pytest',
        category: 'test',
        weight: 0.9,
        logLine: 37,
        // `>       assert cart.total() == 90.0`, the three E lines, then `FAILED tests/test_cart.py::…`
        related: [36, 37, 38, 39, 43],
      },
    ]);
  });

  it('reads the long traceback: the test line, then frames down to the raising line with its function', () => {
    const signals = pytestMatcher.extract(log('pytest-keyerror-in-source'));
    expect(signals[0]).toMatchObject({
      kind: 'test',
      symbol: 'test_place_reserves_each_line',
      path: 'tests/test_orders.py',
      line: 17,
      message: "KeyError: 'ab-1'",
      logLine: 33,
      related: [15, 31, 33, 37],
    });
    expect(signals.slice(1).map((s) => [s.kind, s.path, s.line, s.symbol, s.weight, s.logLine])).toEqual([
      ['frame', 'inventory/orders.py', 14, 'place', 0.6, 20],
      ['frame', 'inventory/orders.py', 14, '<listcomp>', 0.6, 23],
      // `inventory/store.py:16: KeyError` names no function: it comes from the `def reserve(` above it.
      ['frame', 'inventory/store.py', 16, 'reserve', 0.6, 35],
    ]);
  });

  it('reads --tb=short -vv output with the full list diff as related lines', () => {
    const [test, ...rest] = pytestMatcher.extract(log('pytest-list-diff-tokenizer'));
    expect(rest).toEqual([]);
    expect(test).toMatchObject({
      kind: 'test',
      symbol: 'test_keywords_keep_versions_and_years',
      path: 'tests/test_keywords.py',
      line: 16,
      message:
        "AssertionError: assert ['release', 'v', 'parser', 'ships', 'with', 'python'] == ['release', 'v2', 'parser', 'ships', '2024', 'with']",
      logLine: 16,
    });
    // Lines 16-31 are the E block (At index 1 diff, Full diff), 33 the FAILED summary line.
    expect(test!.related).toEqual([...Array.from({ length: 16 }, (_, i) => 16 + i), 33]);
  });

  it('turns a collection ModuleNotFoundError into a dependency diagnostic at the import line', () => {
    const signals = pytestMatcher.extract(log('pytest-collect-missing-module'));
    expect(signals[0]).toEqual({
      kind: 'diagnostic',
      path: 'settings/export.py',
      line: 1,
      symbol: 'tomli_w',
      message: "ModuleNotFoundError: No module named 'tomli_w'",
      tool: 'pytest',
      severity: 'error',
      category: 'dependency',
      weight: 1,
      logLine: 35,
      related: [37, 39],
    });
    expect(signals.slice(1).map((s) => [s.path, s.line, s.weight])).toEqual([
      ['/root/.pyenv/versions/3.11.7/lib/python3.11/importlib/__init__.py', 126, 0.05],
      ['tests/test_export.py', 1, 0.6],
      ['settings/__init__.py', 1, 0.6],
    ]);
  });

  it('returns nothing for other tools', () => {
    for (const c of ['unittest-fail-duration-format', 'mypy-arg-type', 'flake8-undefined-name', 'rspec-changed-lib-rounding']) {
      expect(pytestMatcher.extract(log(c))).toEqual([]);
    }
  });
});
