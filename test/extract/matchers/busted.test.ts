import { describe, expect, it } from 'vitest';
import { bustedMatcher } from '../../../src/extract/matchers/busted.js';
import { tapMatcher } from '../../../src/extract/matchers/tap.js';
import { logLines } from '../../helpers/log.js';

describe('bustedMatcher', () => {
  it("pins an assertion to its spec line and an error to the `it` block, with the raising line as a frame", () => {
    expect(bustedMatcher.extract(logLines('fixtures/recorded/busted/busted.log'))).toEqual([
      { kind: 'test', symbol: 'slug truncates at a word boundary', path: 'spec/slug_spec.lua', line: 10, message: 'Expected objects to be equal.',
        tool: 'busted', category: 'test', weight: 0.9, logLine: 4, related: [5, 6, 7, 8, 9, 10] },
      { kind: 'test', symbol: 'slug counts words', path: 'spec/slug_spec.lua', line: 13, message: "attempt to index local 'slug' (a nil value)",
        tool: 'busted', category: 'test', weight: 0.9, logLine: 12, related: [13, 14] },
      { kind: 'frame', path: 'src/slug.lua', line: 17, message: "attempt to index local 'slug' (a nil value)", tool: 'busted', weight: 0.6, logLine: 14 },
    ]);
  });

  it("leaves busted's TAP output to the TAP matcher, which reads its `# file @ N` lines", () => {
    const log = logLines('fixtures/recorded/busted/busted-tap.log');
    expect(bustedMatcher.extract(log)).toEqual([]);
    expect(tapMatcher.extract(log).map((s) => [s.symbol, s.path, s.line])).toEqual([
      ['slug truncates at a word boundary', 'spec/slug_spec.lua', 9],
      ['slug counts words', 'spec/slug_spec.lua', 13],
    ]);
  });

  it("keeps the `stack traceback:` that --verbose prints after a blank line with its failure (lua_cliargs)", () => {
    const [first, second] = bustedMatcher.extract(logLines('fixtures/recorded/busted/cliargs.log')).filter((s) => s.kind === 'test');
    expect(first).toMatchObject({ path: 'spec/cliargs_spec.lua', line: 34, logLine: 4 });
    expect(first!.related).toEqual([5, 6, 7, 8, 9, 10, 12, 13]);
    expect(second!.logLine).toBe(16);
    const wild = bustedMatcher.extract(logLines('fixtures/wild/plain-lua-cliargs-busted-lua55/log.txt')).filter((s) => s.kind === 'test');
    expect(wild[1]!.related).toEqual([18, 19, 20, 21, 23, 24, 25]);
  });
});
