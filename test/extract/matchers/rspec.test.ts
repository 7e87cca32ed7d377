import { describe, expect, it } from 'vitest';
import { rspecMatcher } from '../../../src/extract/matchers/rspec.js';
import { logLines } from '../../helpers/log.js';

const log = (c: string) => logLines(`fixtures/logs/${c}/log.txt`);

describe('rspecMatcher', () => {
  it('reads expected/got failures, pinned to the spec frame, with the rerun line as related', () => {
    expect(rspecMatcher.extract(log('rspec-changed-lib-rounding'))).toEqual([
      {
        kind: 'test',
        symbol: 'Invoice::Document adds tax per line',
        path: './spec/document_spec.rb',
        line: 17,
        message: 'expected: 24.2 got: 24.19',
        tool: 'rspec',
        category: 'test',
        weight: 0.9,
        logLine: 8,
        // Failure/Error, expected, got, (compared using ==), then `rspec ./spec/document_spec.rb:16 # …`
        related: [6, 8, 9, 11, 28],
      },
      {
        kind: 'test',
        symbol: 'Invoice::Document computes the gross total',
        path: './spec/document_spec.rb',
        line: 21,
        message: 'expected: 164.19 got: 164.18',
        tool: 'rspec',
        category: 'test',
        weight: 0.9,
        logLine: 17,
        related: [15, 17, 18, 20, 29],
      },
    ]);
  });

  it('reads an exception failure and its lib frames (Ruby 3.1 `name\' quoting, Actions log)', () => {
    const signals = rspecMatcher.extract(log('rspec-keyerror-in-lib'));
    expect(signals[0]).toMatchObject({
      kind: 'test',
      symbol: 'Catalog::Importer builds one product per row',
      path: './spec/importer_spec.rb',
      line: 11,
      message: 'KeyError: key not found: price_cents',
      logLine: 35,
      related: [33, 35, 36, 61],
    });
    expect(signals.slice(1, 6).map((s) => [s.kind, s.path, s.line, s.symbol, s.weight, s.logLine])).toEqual([
      ['frame', './lib/catalog/importer.rb', 21, 'price_of', 0.6, 37],
      ['frame', './lib/catalog/importer.rb', 16, 'build', 0.6, 38],
      ['frame', './lib/catalog/importer.rb', 10, 'products', 0.6, 39],
      ['frame', './lib/catalog/importer.rb', 10, 'map', 0.6, 40],
      ['frame', './lib/catalog/importer.rb', 10, 'products', 0.6, 41],
    ]);
    expect(signals[6]).toMatchObject({ kind: 'test', symbol: 'Catalog::Importer strips titles and parses prices', line: 15 });
    expect(signals).toHaveLength(12);
  });

  it('returns nothing for other tools', () => {
    for (const c of ['pytest-assert-discount-threshold', 'unittest-fail-duration-format', 'flake8-undefined-name']) {
      expect(rspecMatcher.extract(log(c))).toEqual([]);
    }
  });
});
