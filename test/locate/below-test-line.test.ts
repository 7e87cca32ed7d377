/** A change the failing test does not reach stays below the test's own line when that line is what the log pins. */
import { describe, expect, it } from 'vitest';
import { mergeCandidates, type Candidate } from '../../src/locate/candidate.js';
import { belowTestLine } from '../../src/locate/blame-change.js';

const UNREACHED = 'the failing test does not reach this code through calls';
const cand = (file: string, line: number, cause: Candidate['cause'], score: number, notes: string[] = [], depth?: number): Candidate => ({
  file,
  line,
  cause,
  score,
  message: cause,
  signals: [],
  notes,
  mapped: 'exact',
  ...(depth === undefined ? {} : { depth }),
});

// The shape of searx (Travis 306035079): an assertion fails in tests/unit/engines/test_google.py:31 (its
// report and its innermost frame), and the breaking commit changed searx/engines/google.py, which the test
// imports but whose changed function its calls do not reach. The real fix changed the test.
const testLine = () => [cand('tests/unit/engines/test_google.py', 31, 'test', 0.9), cand('tests/unit/engines/test_google.py', 31, 'frame', 0.6, ['innermost frame in the repository'], 0)];

describe('belowTestLine', () => {
  it('ranks an unreached change just below the failing test line the log pins', () => {
    const log = testLine();
    const blamed = belowTestLine([cand('searx/engines/google.py', 168, 'diff', 1.21, ['the failing test imports this file', UNREACHED])], log);
    const ranked = mergeCandidates([...log, ...blamed]);
    expect(ranked[0]).toMatchObject({ file: 'tests/unit/engines/test_google.py', line: 31 });
    expect(ranked[1]).toMatchObject({ file: 'searx/engines/google.py', line: 168 });
  });

  it('leaves a change the test reaches, or one on the stack, above the test line', () => {
    const log = testLine();
    const blamed = belowTestLine([cand('src/parser.py', 247, 'diff', 1.45, ['test `t` → `parse` → changed line 247'])], log);
    expect(mergeCandidates([...log, ...blamed])[0]).toMatchObject({ file: 'src/parser.py', line: 247 });
  });

  it('leaves an unreached change alone when the log pins code past the test (a frame raised in the code)', () => {
    const log = [...testLine(), cand('src/tasks/wait.py', 51, 'frame', 1.25, ['raised in the code the failing test called', 'innermost frame in the repository'], 0)];
    const blamed = belowTestLine([cand('src/engine.py', 117, 'diff', 1.35, ['the failure passes through this file', UNREACHED])], log);
    expect(mergeCandidates([...log, ...blamed])[0]).toMatchObject({ file: 'src/engine.py', line: 117 });
  });

  it("holds for a test file whatever its name, since the runner's report says it is one", () => {
    // The shape of glances (Travis 361154903): unittest reports the failing test in `unitest.py:252` (a name
    // no test-file pattern knows); the breaking commit changed glances/__init__.py, which the test imports
    // but does not reach through calls. The real fix changed unitest.py:252 (and glances/compat.py).
    const log = [cand('unitest.py', 252, 'test', 1.05, ['innermost frame in the repository'])];
    const blamed = belowTestLine([cand('glances/__init__.py', 30, 'diff', 1.38, ['the failing test imports this file', UNREACHED])], log);
    expect(mergeCandidates([...log, ...blamed])[0]).toMatchObject({ file: 'unitest.py', line: 252 });
  });

  it('leaves an unreached change alone when the test-file line is a bare frame with no failing test reported on it', () => {
    // openpnp (Travis 110833060): an exception printed from a test class with no test report on that line.
    const log = [cand('src/test/java/SampleJobTest.java', 120, 'frame', 0.6, ['innermost frame in the repository'], 0)];
    const blamed = belowTestLine([cand('src/main/java/ReferenceCamera.java', 29, 'diff', 0.98, ['the failing test reaches this file through 2 imports', UNREACHED])], log);
    expect(mergeCandidates([...log, ...blamed])[0]).toMatchObject({ file: 'src/main/java/ReferenceCamera.java', line: 29 });
  });
});
