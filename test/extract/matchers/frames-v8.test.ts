import { describe, expect, it } from 'vitest';
import { parseV8Frame, v8FramesMatcher } from '../../../src/extract/matchers/frames-v8.js';
import { logLines } from '../../helpers/log.js';

const log = (c: string) => logLines(`fixtures/logs/${c}/log.txt`);

describe('v8FramesMatcher', () => {
  it('reads named frames with relative paths (jest)', () => {
    const frames = v8FramesMatcher.extract(log('jest-typeerror-in-source'));
    expect(frames.slice(0, 3).map((f) => [f.symbol, f.path, f.line, f.column, f.weight, f.logLine])).toEqual([
      ['map', 'src/labels.js', 12, 27, 0.6, 40],
      ['sectionOf', 'src/notes.js', 14, 21, 0.6, 41],
      ['Object.renderNotes', '__tests__/notes.test.js', 13, 16, 0.6, 42],
    ]);
    expect(frames[0]).toMatchObject({ kind: 'frame', message: 'at map (src/labels.js:12:27)', tool: 'v8-frame' });
  });

  it('reads file:// URLs and anonymous frames, and marks node internals as library frames', () => {
    const c = 'node-test-typeerror-in-source';
    const frames = v8FramesMatcher.extract(log(c));
    const root = `/home/runner/work/${c}/${c}`;
    expect(frames[0]).toMatchObject({ path: `${root}/src/import.js`, line: 7, column: 21, weight: 0.6 });
    expect(frames[0]!.symbol).toBeUndefined();
    expect(frames[1]).toMatchObject({ symbol: 'usersFromCsv', path: `${root}/src/import.js`, line: 5 });
    // `at Array.map (<anonymous>)` has no location and is skipped
    expect(frames[2]).toMatchObject({ symbol: 'TestContext.<anonymous>', path: `${root}/test/import.test.js`, line: 11 });
    const internal = frames.find((f) => f.path === 'node:internal/test_runner/harness');
    expect(internal).toMatchObject({ line: 255, weight: 0.05 });
    expect(frames.filter((f) => f.weight === 0.6)).toHaveLength(12);
  });

  it('reads mocha frames and gives node_modules frames the library weight', () => {
    const frames = v8FramesMatcher.extract(log('mocha-before-hook-typeerror'));
    expect(frames.map((f) => [f.path, f.line, f.weight])).toEqual([
      ['src/router.js', 5, 0.6],
      ['src/router.js', 13, 0.6],
      ['src/app.js', 8, 0.6],
      ['test/app.test.js', 10, 0.6],
      ['node:internal/timers', 483, 0.05],
    ]);
    expect(parseV8Frame('    at Runner.run (/w/node_modules/mocha/lib/runner.js:10:3)')).toMatchObject({ path: '/w/node_modules/mocha/lib/runner.js' });
    const [dep] = v8FramesMatcher.extract([{ n: 1, text: '    at Runner.run (/w/node_modules/mocha/lib/runner.js:10:3)' }]);
    expect(dep!.weight).toBe(0.05);
  });

  it('ignores frames without a file location and non-V8 stack formats', () => {
    const lines = [
      '    at Array.map (<anonymous>)',
      '    at async Promise.all (index 0)',
      '    at eval (eval at run (/w/a.js:1:1), <anonymous>:1:1)',
      '\tat com.example.App.main(App.java:12)',
      '  File "/w/app.py", line 3, in <module>',
      'look at this: nothing',
    ].map((text, i) => ({ n: i + 1, text }));
    expect(v8FramesMatcher.extract(lines)).toEqual([]);
  });

  it('stays fast on a long line that only looks like a frame', () => {
    const text = '    at ' + 'a ('.repeat(100_000);
    const t0 = Date.now();
    expect(v8FramesMatcher.extract([{ n: 1, text }])).toEqual([]);
    expect(Date.now() - t0).toBeLessThan(200);
  });
});
