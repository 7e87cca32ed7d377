import { describe, expect, it } from 'vitest';
import { isPythonLibraryPath, pythonFramesMatcher } from '../../../src/extract/matchers/frames-python.js';
import { logLines } from '../../helpers/log.js';

const log = (c: string) => logLines(`fixtures/logs/${c}/log.txt`);
const ROOT = '/home/runner/work/unittest-error-missing-column/unittest-error-missing-column';

describe('pythonFramesMatcher', () => {
  it('reads File "…" frames and the closing exception line of each traceback', () => {
    const signals = pythonFramesMatcher.extract(log('unittest-error-missing-column'));
    expect(signals).toHaveLength(15);
    expect(signals.slice(0, 5)).toEqual([
      {
        kind: 'frame',
        path: `${ROOT}/tests/test_book.py`,
        line: 18,
        symbol: 'test_balance',
        message: `File "${ROOT}/tests/test_book.py", line 18, in test_balance`,
        tool: 'python-frame',
        weight: 0.6,
        logLine: 22,
      },
      expect.objectContaining({ path: `${ROOT}/ledger/book.py`, line: 7, symbol: 'load', logLine: 25 }),
      expect.objectContaining({ path: `${ROOT}/ledger/book.py`, line: 7, symbol: '<listcomp>', logLine: 28 }),
      expect.objectContaining({ path: `${ROOT}/ledger/parse.py`, line: 17, symbol: 'parse_row', logLine: 31 }),
      {
        kind: 'diagnostic',
        symbol: 'IndexError',
        message: 'IndexError: list index out of range',
        tool: 'python-frame',
        weight: 0.5,
        logLine: 34,
        related: [22, 25, 28, 31],
      },
    ]);
  });

  it('ignores pytest and mypy output, which print no File "…" frames', () => {
    for (const c of ['pytest-keyerror-in-source', 'pytest-collect-missing-module', 'mypy-arg-type', 'rspec-keyerror-in-lib']) {
      expect(pythonFramesMatcher.extract(log(c))).toEqual([]);
    }
  });

  it("reads faulthandler's dump most recent call first: the fatal line, the crashing thread down to the project's frame", () => {
    // spyder's test run segfaulting in a Qt wait (BugSwarm's Actions log, fixtures/wild/gha-python-2512083654).
    const out = pythonFramesMatcher.extract(logLines('fixtures/wild/gha-python-2512083654/log.txt'));
    // The step ran the suite five times (`||`); the last attempt's dump is checked.
    const fatal = out.filter((s) => s.kind === 'diagnostic' && s.message.startsWith('Fatal Python error') && s.logLine >= 4298);
    expect(fatal.map((s) => [s.message, s.logLine, s.blockEnd])).toEqual([
      ['Fatal Python error: Segmentation fault', 4298, 4298],
      ['Fatal Python error: Segmentation fault', 4375, 4380],
    ]);
    // Only the crashing thread's frames, from where it crashed to the test that ran it; not the waiting
    // thread's, not pytest's and pluggy's under the test (or the pin would go to `runtests.py`).
    const frames = out.filter((s) => s.kind === 'frame' && s.logLine > 4298);
    expect(frames.map((s) => s.logLine)).toEqual([4376, 4377, 4378, 4379, 4380]);
    expect(frames[frames.length - 1]).toMatchObject({ path: '/home/runner/work/spyder/spyder/spyder/app/tests/test_mainwindow.py', line: 3375, symbol: 'test_varexp_rename', weight: 0.6 });
  });

  it('tells library frames from project ones', () => {
    expect(isPythonLibraryPath('/root/.pyenv/versions/3.11.7/lib/python3.11/importlib/__init__.py')).toBe(true);
    expect(isPythonLibraryPath('/usr/lib/python3/dist-packages/mypy/main.py')).toBe(true);
    expect(isPythonLibraryPath('/opt/venv/lib/python3.12/site-packages/requests/api.py')).toBe(true);
    expect(isPythonLibraryPath('<frozen importlib._bootstrap>')).toBe(true);
    expect(isPythonLibraryPath(`${ROOT}/ledger/parse.py`)).toBe(false);
    expect(isPythonLibraryPath('src/lib/python_helpers.py')).toBe(false);
  });
});
