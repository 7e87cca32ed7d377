import { describe, expect, it } from 'vitest';
import { xctestMatcher } from '../../../src/extract/matchers/xctest.js';
import { gccMatcher } from '../../../src/extract/matchers/gcc.js';
import { logLines } from '../../helpers/log.js';

// Real xcodebuild logs published by xcpretty (MIT); see fixtures/recorded/xcodebuild/SOURCE.md.
const kiwi = logLines('fixtures/recorded/xcodebuild/raw_kiwi_fail.txt');
const T = '/Users/musalj/code/OSS/ObjectiveRecord/Example/SampleProjectTests';

describe('xctestMatcher', () => {
  it("reads xcodebuild's `file.m:N: error: -[Class test] : message`, with `Test Case … failed` as related", () => {
    const signals = xctestMatcher.extract(kiwi);
    expect(signals.map((s) => [s.symbol, s.path, s.line, s.logLine, s.related])).toEqual([
      ['FindCreateSaveDeleteSpecs_Finders_FindsTheFirstMatch', `${T}/FindersAndCreatorsTests.m`, 111, 1753, [1754]],
      ['Mappings_UsesMappedValuesWhenCreating', `${T}/MappingsTests.m`, 61, 1871, [1872]],
      ['Mappings_UsesMappingsInFindOrCreate', `${T}/MappingsTests.m`, 82, 1886, [1887]],
    ]);
    expect(signals[1]!.message).toBe("'Mappings, uses mapped values when creating' [FAILED], expected subject to equal 24, got 25");
  });

  it('leaves clang errors to gcc.ts, and gcc.ts leaves XCTest failures alone', () => {
    expect(xctestMatcher.extract(logLines('fixtures/recorded/xcodebuild/raw_kiwi_compilation_fail.txt'))).toEqual([]);
    expect(gccMatcher.extract(kiwi).filter((s) => s.path?.endsWith('Tests.m'))).toEqual([]);
  });
});
