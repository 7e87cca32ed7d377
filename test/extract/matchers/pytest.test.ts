import { describe, expect, it } from 'vitest';
import { pytestMatcher } from '../../../src/extract/matchers/pytest.js';
import { logLines } from '../../helpers/log.js';

const log = (c: string) => logLines(`fixtures/logs/${c}/log.txt`);
/** The short test summary's own block signal (tested below) left out. */
const isSummaryList = (s: { kind: string; message: string }) => s.kind === 'diagnostic' && /^(?:FAILED|ERROR) /.test(s.message);
const extract = (lines: ReturnType<typeof log>) => pytestMatcher.extract(lines).filter((s) => !isSummaryList(s));

describe('pytestMatcher', () => {
  it('reads an assertion failure with its > and E lines and the FAILED summary (Actions log)', () => {
    const signals = extract(log('pytest-assert-discount-threshold'));
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
        // `>       assert cart.total() == 90.0` and the three E lines; the `FAILED tests/test_cart.py::…` entry is the summary's
        related: [36, 37, 38, 39],
      },
    ]);
  });

  it('reads the long traceback: the test line, then frames down to the raising line with its function', () => {
    const signals = extract(log('pytest-keyerror-in-source'));
    expect(signals[0]).toMatchObject({
      kind: 'test',
      symbol: 'test_place_reserves_each_line',
      path: 'tests/test_orders.py',
      line: 17,
      message: "KeyError: 'ab-1'",
      logLine: 33,
      related: [15, 31, 33],
    });
    expect(signals.slice(1).map((s) => [s.kind, s.path, s.line, s.symbol, s.weight, s.logLine])).toEqual([
      ['frame', 'inventory/orders.py', 14, 'place', 0.6, 20],
      ['frame', 'inventory/orders.py', 14, '<listcomp>', 0.6, 23],
      // `inventory/store.py:16: KeyError` names no function: it comes from the `def reserve(` above it.
      ['frame', 'inventory/store.py', 16, 'reserve', 0.6, 35],
    ]);
  });

  it('reads --tb=short -vv output with the full list diff as related lines', () => {
    const [test, ...rest] = extract(log('pytest-list-diff-tokenizer'));
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
    // Lines 16-31 are the E block (At index 1 diff, Full diff); the FAILED summary line (33) is the summary's.
    expect(test!.related).toEqual(Array.from({ length: 16 }, (_, i) => 16 + i));
  });

  it('turns a collection ModuleNotFoundError into a dependency diagnostic at the import line', () => {
    const signals = extract(log('pytest-collect-missing-module'));
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
      // The whole collection error: its title, `ImportError while importing …`, the traceback's entries, the E line.
      related: [24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37],
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

  it('quotes the short test summary as one block of its first entries', () => {
    const out = pytestMatcher.extract(log('pytest-assert-discount-threshold')).filter(isSummaryList);
    expect(out).toEqual([expect.objectContaining({ kind: 'diagnostic', category: 'test', logLine: 43, related: [] })]);
    // A real log with 19 collection errors: the first ten entries, `ERROR tests/x.py` with or without a message.
    const real = pytestMatcher.extract(logLines('fixtures/real-logs/python-2350842179-orig.log')).filter(isSummaryList);
    expect(real.map((s) => [s.logLine, s.related])).toEqual([[718, [719, 720, 721, 722, 723, 724, 725, 726, 727]]]);
  });

  it("ends the summary's block at its last entry or the run's count line, and reads pytest-subtests' entries", () => {
    // CPython's statistics tests under pytest-subtests, recorded (fixtures/wild/rec-pytest-statistics-median).
    const [sub] = pytestMatcher.extract(logLines('fixtures/wild/rec-pytest-statistics-median/log.txt')).filter(isSummaryList);
    // Three FAILED entries, then `SUBFAILED(x=3.5, count=2) tests/…` ones: the first ten entries related, the
    // block to the count line under the list.
    expect(sub).toMatchObject({ logLine: 171, category: 'test', related: [172, 173, 174, 175, 176, 177, 178, 179, 180], blockEnd: 183 });
    // A list of modules that failed to import names no test: no test category against the collection errors.
    const [collect] = pytestMatcher.extract(logLines('fixtures/wild/gha-python-27530380915/log.txt')).filter(isSummaryList);
    expect(collect).toMatchObject({ logLine: 614, related: [615, 616], blockEnd: 616 });
    expect(collect!.category).toBeUndefined();
    // Under -q the count line follows the list: it closes the block.
    const [colorsys] = pytestMatcher.extract(logLines('fixtures/wild/rec-gha-pytest-colorsys/log.txt')).filter(isSummaryList);
    expect(colorsys).toMatchObject({ logLine: 65, related: [66], blockEnd: 67 });
  });

  it('reads a title padded with one underscore a side (a long parametrised name), not the frame separator', () => {
    const out = extract(logLines('fixtures/real-logs/python-2163834915-orig.log'));
    const t = out.find((s) => s.kind === 'test' && s.logLine === 1263);
    expect(t).toMatchObject({ symbol: 'test_sys_entities_normalized_token_span[ok 2:30pm now-valid_spans10-sys_time]', path: 'tests/test_core.py', line: 430 });
    expect(t!.related).toContain(1262);
    // `_ _ _ _ _` between the frames of a long traceback does not open a section.
    const colorsys = extract(logLines('fixtures/wild/rec-gha-pytest-colorsys/log.txt'));
    expect(colorsys.filter((s) => s.kind === 'test').map((s) => s.symbol)).toEqual(['ColorsysTest.test_hsv_roundtrip', 'ColorsysTest.test_hsv_values']);
  });

  it('quotes a real collection error whole, from its title down to the E line', () => {
    const out = extract(logLines('fixtures/real-logs/python-2062223369-orig.log'));
    const first = out.find((s) => s.kind === 'diagnostic')!;
    expect(first).toMatchObject({ category: 'dependency', symbol: 'importlib.metadata', path: 'mycroft/util/plugins.py', line: 17, logLine: 1221 });
    expect(first.related).toEqual([1213, 1214, 1215, 1216, 1217, 1218, 1219, 1220, 1221, 1222, 1223]);
    // The next modules failing on the same import restate it.
    const collect = out.filter((s) => s.kind === 'diagnostic');
    expect(collect.length).toBeGreaterThan(2);
    expect(collect.slice(1).every((s) => s.restatement && s.message === first.message)).toBe(true);
  });

  it('starts a collection error with a long plumbing traceback at its first entry in the project', () => {
    const out = extract(logLines('fixtures/real-logs/python-2512030835-orig.log'));
    const first = out.find((s) => s.kind === 'diagnostic')!;
    // The title (791) sits 35 lines above `kubernetes/__init__.py:20: in <module>` (826), past _pytest's and importlib's entries.
    expect(first).toMatchObject({ message: 'SyntaxError: invalid syntax', path: 'kubernetes/config/kube_config.py', line: 37 });
    expect(first.related).toEqual([826, 827, 828, 829, 830, 831, 832, 833, 834, 835]);
  });
});
