import { describe, expect, it } from 'vitest';
import { dockerBuildMatcher } from '../../../src/extract/matchers/docker-build.js';
import { logLines } from '../../helpers/log.js';

const read = (name: string) => dockerBuildMatcher.extract(logLines(`fixtures/recorded/docker/${name}.log`));

describe('dockerBuildMatcher', () => {
  it("pins a Dockerfile parse error to its line, from the classic builder and from BuildKit's `failed to solve`", () => {
    for (const [name, logLine] of [['classic-parse-error', 2], ['buildkit-parse-error', 10]] as const) {
      expect(read(name)).toEqual([{ kind: 'diagnostic', path: 'Dockerfile', line: 3, message: 'Dockerfile parse error: unknown instruction: CMND',
        tool: 'docker-build', severity: 'error', category: 'compile', weight: 1, logLine }]);
    }
  });

  it('names the COPY of a missing file by its instruction, the step line as related', () => {
    expect(read('classic-copy-missing')).toEqual([{ kind: 'diagnostic', path: 'Dockerfile', symbol: 'COPY ./bin/hello /',
      message: 'COPY ./bin/hello /: COPY failed: file not found in build context or excluded by .dockerignore: stat bin/hello: file does not exist',
      tool: 'docker-build', severity: 'error', category: 'compile', weight: 0.8, logLine: 5, related: [4] }]);
    const [kit, ...rest] = read('buildkit-copy-missing');
    expect(rest).toEqual([]);
    expect(kit).toMatchObject({ path: 'Dockerfile', symbol: 'COPY ./bin/hello /', category: 'compile', logLine: 18, related: [16] });
    expect(kit!.message).toMatch(/^COPY \.\/bin\/hello \/: failed to walk .*: no such file or directory$/);
  });

  it("names a RUN that exited non-zero but leaves its category to what failed inside it", () => {
    const classic = read('classic-run-exit');
    const kit = read('buildkit-run-exit');
    for (const [signals, logLine, step] of [[classic, 9, 6], [kit, 31, 28]] as const) {
      expect(signals).toHaveLength(1);
      expect(signals[0]).toMatchObject({ path: 'Dockerfile', symbol: 'RUN wget -q -O /tmp/hello.c http://127.0.0.1:9/hello.c', weight: 0.4,
        logLine, related: [step] });
      expect(signals[0]!.category).toBeUndefined();
    }
  });

  it('returns nothing for other tools', () => {
    expect(dockerBuildMatcher.extract(logLines('fixtures/recorded/terraform/plan.log'))).toEqual([]);
    expect(dockerBuildMatcher.extract(logLines('fixtures/logs/gcc-compile-error/log.txt'))).toEqual([]);
  });
});
