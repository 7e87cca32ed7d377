import { describe, expect, it } from 'vitest';
import { antMatcher } from '../../../src/extract/matchers/ant.js';
import { logLines } from '../../helpers/log.js';

// Real Travis logs of the development corpus (fixtures/wild/<id>/label.json names each source).
const run = (id: string) => antMatcher.extract(logLines(`fixtures/wild/${id}/log.txt`));

describe('antMatcher', () => {
  it('reads BUILD FAILED and the chain of build-file locations under it, down to the line before Total time', () => {
    const out = run('travis-bugswarm-java-repl-225.1');
    expect(out.map((s) => [s.logLine, s.related, s.blockEnd, s.category])).toEqual([
      // The task's own error just above the verdict: `[java] Failed to download …`.
      [117, undefined, 117, 'dependency'],
      [119, [120, 121, 122], 122, 'dependency'],
    ]);
    expect(out[1]).toMatchObject({ path: '/home/travis/build/albertlatacz/java-repl/build.xml', line: 180, message: 'Java returned: 1' });
  });

  it('stops before the Java stack trace Ant prints under the message, and calls an unknown host infra (no pin)', () => {
    const out = run('travis-bugswarm-logisticspipes-356.3');
    expect(out.map((s) => [s.logLine, s.related, s.blockEnd, s.category, s.path])).toEqual([
      [129, undefined, 129, 'infra', undefined],
      [131, [132], 132, 'infra', undefined],
    ]);
  });

  it('reads a verdict with no location (`Target "test" does not exist`) and nothing in a log without one', () => {
    expect(run('travis-bugswarm-idea-gitignore-ant-no-target').map((s) => [s.logLine, s.related, s.message])).toEqual([
      [85, [86], 'Target "test" does not exist in the project "idea-gitignore".'],
    ]);
    expect(run('travis-bugswarm-config-jvm-oom')).toEqual([]);
  });
});
