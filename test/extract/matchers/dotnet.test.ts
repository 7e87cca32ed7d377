import { describe, expect, it } from 'vitest';
import { dotnetMatcher } from '../../../src/extract/matchers/dotnet.js';
import { logLines } from '../../helpers/log.js';

// dotnet cannot run here: these are real outputs published by others (fixtures/recorded/dotnet/SOURCE.md).
const run = (path: string) => dotnetMatcher.extract(logLines(path));

describe('dotnetMatcher', () => {
  it('reads msbuild errors from a raw Actions log, behind the ##[error] annotation, path as printed', () => {
    const out = run('fixtures/recorded/dotnet/setup-dotnet-37-build.log');
    expect(out.map((s) => [s.path, s.line, s.column, s.message.slice(0, 6), s.logLine])).toEqual([
      ['Tightening/TighteningMessages.cs', 17, 19, 'CS0103', 1],
      ['Tightening/TighteningMessages.cs', 17, 63, 'CS0246', 2],
      ['Tightening/TighteningMessages.cs', 18, 19, 'CS0103', 3],
      ['Tightening/TighteningMessages.cs', 18, 63, 'CS0246', 4],
    ]);
    expect(out[0]).toEqual({
      kind: 'diagnostic',
      path: 'Tightening/TighteningMessages.cs',
      line: 17,
      column: 19,
      message: "CS0103: The name 'Mid0064' does not exist in the current context",
      tool: 'dotnet',
      severity: 'error',
      category: 'compile',
      weight: 1,
      logLine: 1,
    });
  });

  it('reads absolute Linux paths and drops the [project] suffix from the message', () => {
    const out = run('fixtures/recorded/dotnet/opensage-1292-build.log');
    expect(out.map((s) => [s.path, s.line, s.column, s.message])).toEqual([
      ['/home/charlie/code/OpenSAGE/src/OpenSage.Game/Scripting/Actions/ScriptActions.cs', 30, 13, "CS0103: The name 'ExecuteImpl' does not exist in the current context"],
      ['/home/charlie/code/OpenSAGE/src/OpenSage.Game/Scripting/Conditions/ScriptConditions.cs', 30, 20, "CS0103: The name 'EvaluateImpl' does not exist in the current context"],
    ]);
  });

  it('reads dotnet test failures: name, Error Message, first non-library Stack Trace frame', () => {
    const out = run('fixtures/recorded/dotnet/window-logger-dotnet-test.log');
    expect(out).toEqual([
      {
        kind: 'test',
        symbol: 'WindowLogger.Presentation.Tests.Forms.MainFormTests.RefreshActivityGrid_WithActivities_ShouldDisplayData',
        message: 'Expected dataSource not to be <null>.',
        path: 'D:\\a\\window-logger\\window-logger\\tests\\WindowLogger.Presentation.Tests\\Forms\\MainFormTests.cs',
        line: 138,
        tool: 'dotnet',
        category: 'test',
        severity: 'error',
        weight: 0.9,
        logLine: 28,
        related: [30],
      },
      expect.objectContaining({
        symbol: 'WindowLogger.Presentation.Tests.Forms.MainFormTests.RefreshActivityGrid_WithEmptyLog_ShouldDisplayCorrectly',
        line: 102,
        logLine: 42,
        related: [44],
      }),
    ]);
  });

  it('returns nothing for JVM output', () => {
    expect(run('fixtures/logs/maven-javac-call-site/log.txt')).toEqual([]);
    expect(run('fixtures/logs/gradle-test-assertion/log.txt')).toEqual([]);
  });
});
