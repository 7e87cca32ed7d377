import { describe, expect, it } from 'vitest';
import { jasmineMatcher } from '../../../src/extract/matchers/jasmine.js';
import { rspecMatcher } from '../../../src/extract/matchers/rspec.js';
import { logLines } from '../../helpers/log.js';

const log = logLines('fixtures/recorded/jasmine/jasmine.log');
const S = '/home/runner/work/slug/slug/spec/slugSpec.js';

describe('jasmineMatcher', () => {
  it("pins each failure to its stack's frame in the spec file, Message and Stack as related", () => {
    const text = (n: number) => log.find((l) => l.n === n)!.text.trim();
    const signals = jasmineMatcher.extract(log);
    expect(signals.map((s) => [s.symbol, s.path, s.line, s.message])).toEqual([
      ['slug truncates at the last word boundary', S, 9, "Expected 'the' to be 'the-quick'."],
      ['slug counts the words of a missing slug', S, 13, "TypeError: Cannot read properties of undefined (reading 'split')"],
    ]);
    expect(signals[1]!.related!.map(text)).toEqual(['Message:', "TypeError: Cannot read properties of undefined (reading 'split')", 'Stack:',
      'at exports.words (/home/runner/work/slug/slug/lib/slug.js:7:32)', `at UserContext.<anonymous> (${S}:13:12)`, 'at <Jasmine>']);
    // RSpec's matcher sees the same `Failures:` / `1) …` shape and leaves it to jasmine.
    expect(rspecMatcher.extract(log)).toEqual([]);
  });

  it('returns nothing for other tools', () => {
    expect(jasmineMatcher.extract(logLines('fixtures/logs/rspec-keyerror-in-lib/log.txt'))).toEqual([]);
  });
});
