import { describe, expect, it } from 'vitest';
import { cmakeMatcher } from '../../../src/extract/matchers/cmake.js';
import { logLines } from '../../helpers/log.js';

const rec = (f: string) => logLines(`fixtures/recorded/cmake/${f}`);

describe('cmakeMatcher', () => {
  it("pins `Could NOT find` to the project's find_package call, past CMake's own modules in the call stack", () => {
    const log = rec('missing-module.log');
    const [s] = cmakeMatcher.extract(log);
    expect(s).toMatchObject({ kind: 'diagnostic', path: 'CMakeLists.txt', line: 4, symbol: 'find_package', category: 'dependency',
      message: 'Could NOT find CURL (missing: CURL_LIBRARY CURL_INCLUDE_DIR) (Required is at least version "7.80")', logLine: 7 });
    // The message, `Call Stack`, and all three entries: the whole block.
    expect(s!.related).toEqual([8, 9, 10, 11, 12, 13]);
  });

  it('reads a missing package configuration file as a dependency failure at the call', () => {
    const [s] = cmakeMatcher.extract(rec('missing-config.log'));
    expect(s).toMatchObject({ path: 'CMakeLists.txt', line: 5, symbol: 'find_package', category: 'dependency',
      message: 'Could not find a package configuration file provided by "fmt" (requested version 9) with any of the following names:' });
    expect(s!.related).toHaveLength(10);
  });

  it('reads a missing source file as a configure (compile) error at the target', () => {
    const signals = cmakeMatcher.extract(rec('missing-source.log'));
    expect(signals.map((s) => [s.path, s.line, s.symbol, s.category, s.message.slice(0, 31)])).toEqual([
      ['CMakeLists.txt', 4, 'add_library', 'compile', 'Cannot find source file: src/mu'],
      ['CMakeLists.txt', 4, 'add_library', 'compile', 'No SOURCES given to target: cal'],
    ]);
  });

  it('returns nothing for other tools', () => {
    expect(cmakeMatcher.extract(logLines('fixtures/logs/gtest-ctest-csv-split/log.txt'))).toEqual([]);
  });
});
