import { describe, expect, it } from 'vitest';
import { jvmCrashMatcher } from '../../../src/extract/matchers/jvm-crash.js';
import { logLines } from '../../helpers/log.js';

// Real Travis logs of the development corpus (fixtures/wild/<id>/label.json names each source).
const run = (id: string) => jvmCrashMatcher.extract(logLines(`fixtures/wild/${id}/log.txt`));

describe('jvmCrashMatcher', () => {
  it("reads HotSpot's banner from the VM warning above it to the allocation line, not the report file's name", () => {
    expect(run('travis-bugswarm-config-jvm-oom')).toEqual([
      {
        kind: 'diagnostic',
        message: 'There is insufficient memory for the Java Runtime Environment to continue.',
        tool: 'jvm-crash',
        severity: 'error',
        weight: 0.9,
        logLine: 101,
        related: [99, 100, 102],
        blockEnd: 102,
        category: 'infra',
      },
    ]);
  });

  it('reads only the first banner of a retried command (sbt under Travis retrying ./gradlew three times)', () => {
    expect(run('travis-bugswarm-sagan-gradlew-jvm-memory-retried').map((s) => [s.logLine, s.related, s.blockEnd])).toEqual([[94, [92, 93, 95], 95]]);
  });

  it('reads nothing in a log without the banner', () => {
    expect(run('travis-bugswarm-java-repl-225.1')).toEqual([]);
  });
});
