import { describe, expect, it } from 'vitest';
import { cmakeMatcher } from '../../../src/extract/matchers/cmake.js';
import { logLines } from '../../helpers/log.js';
import { diagnose } from '../../../src/diagnose.js';

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

  it("pins the CMakeLists.txt line its `CMake Error at CMakeLists.txt:N (add_executable):` names, quoting both of the target's errors (cJSON)", async () => {
    const d = await diagnose({ log: 'fixtures/recorded/cmake/cjson-missing-source.log' });
    expect(d.category).toBe('compile');
    expect(d.findings[0]).toMatchObject({ file: 'CMakeLists.txt', line: 245 });
    expect(d.evidence[0]!.text).toBe('CMake Error at CMakeLists.txt:245 (add_executable):');
    expect(d.evidence.map((e) => e.text)).toContainEqual('    tests/test.c');
  });

  it("quotes the CMake error that broke the target before the linker's `cannot find -l…` it caused; the failure is the build's, not a dependency's (cJSON)", async () => {
    const d = await diagnose({ log: 'fixtures/recorded/cmake/cjson-missing-target-build.log' });
    expect(d.category).toBe('compile');
    expect(d.findings[0]).toMatchObject({ file: 'CMakeLists.txt', line: 246 });
    expect(d.evidence[0]!.text).toBe('CMake Error at CMakeLists.txt:246 (target_link_libraries):');
    expect(d.evidence.map((e) => e.text)).toContainEqual('    cjson::cjson');
  });

  it('the same on a Travis log pasted in an issue: the CMake block first, category compile (gp-assignment)', async () => {
    const d = await diagnose({ log: 'fixtures/wild/plain-cpp-gp-assignment-travis-cmake-target-and-include/log.txt' });
    expect(d.category).toBe('compile');
    expect(d.evidence.slice(0, 4).map((e) => e.line)).toEqual([1, 2, 3, 4]);
  });
});
