import { describe, expect, it } from 'vitest';
import { dotnetFramesMatcher } from '../../../src/extract/matchers/frames-dotnet.js';
import { logLines } from '../../helpers/log.js';

const run = (path: string) => dotnetFramesMatcher.extract(logLines(path));

describe('dotnetFramesMatcher', () => {
  it("reads the runtime's `in path:line N` frames and xUnit's `path(N,0): at` frames", () => {
    const out = run('fixtures/recorded/dotnet/window-logger-dotnet-test.log');
    const file = 'D:\\a\\window-logger\\window-logger\\tests\\WindowLogger.Presentation.Tests\\Forms\\MainFormTests.cs';
    expect(out.map((s) => [s.path, s.line, s.column, s.weight, s.logLine])).toEqual([
      [file, 138, undefined, 0.6, 11],
      [file, 102, undefined, 0.6, 24],
      [file, 138, undefined, 0.6, 39],
      [file, 102, undefined, 0.6, 53],
    ]);
    expect(out[2]).toMatchObject({
      symbol: 'WindowLogger.Presentation.Tests.Forms.MainFormTests.RefreshActivityGrid_WithActivities_ShouldDisplayData',
      message: `at WindowLogger.Presentation.Tests.Forms.MainFormTests.RefreshActivityGrid_WithActivities_ShouldDisplayData() in ${file}:line 138`,
      tool: 'dotnet-frame',
      kind: 'frame',
    });
    // xUnit's prefix is the runner's, not the frame's.
    expect(out[0]!.message.startsWith('D:\\a\\')).toBe(true);
  });

  it('returns nothing for JVM traces', () => {
    expect(run('fixtures/logs/maven-npe-in-source/log.txt')).toEqual([]);
  });
});
