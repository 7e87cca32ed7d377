/** Merging candidates on one line: each independent route corroborates once, however often the log repeats it. */
import { describe, expect, it } from 'vitest';
import { mergeCandidates, type Candidate } from '../../src/locate/candidate.js';

const cand = (file: string, line: number, cause: Candidate['cause'], score: number): Candidate => ({ file, line, cause, score, message: cause, signals: [], notes: [], mapped: 'exact' });

describe('mergeCandidates', () => {
  it('a frame and the diff on one line add one bonus; a second frame of the same route adds none', () => {
    const [one] = mergeCandidates([cand('a.ts', 3, 'diff', 1), cand('a.ts', 3, 'frame', 0.5)]);
    expect(one!.score).toBeCloseTo(1.1);
    const [twice] = mergeCandidates([cand('a.ts', 3, 'diff', 1), cand('a.ts', 3, 'frame', 0.5), cand('a.ts', 3, 'frame', 0.5)]);
    expect(twice!.score).toBeCloseTo(1.1);
  });

  it("23 tests failing through one helper's frame do not outrank the PR's change by repetition (mybatis-3, Travis 117115624)", () => {
    // Surefire prints each failing test's trimmed trace: the test, then the same helper frame, three times over.
    const repeated = Array.from({ length: 23 }, () => [cand('src/test/FooTest.java', 371, 'test', 0.9), cand('src/test/FooTest.java', 371, 'frame', 0.8), cand('src/test/FooTest.java', 371, 'frame', 0.8)]).flat();
    const ranked = mergeCandidates([...repeated, cand('src/main/Builder.java', 342, 'diff', 1.5)]);
    expect(ranked[0]).toMatchObject({ file: 'src/main/Builder.java', line: 342 });
    expect(ranked[1]!.score).toBeCloseTo(0.9 + 0.15);
  });
});
