import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

const MAX_LINE = 2000;
/** Lines of one failure kept as related: an assert_equal diff or a trace's first frames. */
const MAX_BLOCK = 40;
const START = /^\s*\d+\) (Failure|Error):$/;
// Minitest ≥ 5.11: `TestMoney#test_total [test/test_money.rb:12]:`; older: `test_total(TestMoney) [test/x.rb:12]:`.
const NAME = /^(?:([\w:]+)#(\S+?)|(\S+?)\(([\w:]+)\))(?: \[(.+?):(\d+)\])?:$/;
// `    lib/money.rb:17:in `sum'` (Ruby ≤ 3.3) or `…:in 'Money.sum'` (3.4).
const FRAME = /^\s+(\S.*?):(\d+):in [`'](.*)'$/;
const TEST_FILE = /(?:^|\/)(?:test_[^/]*|[^/]*_test)\.rb$/;
const LIBRARY = /\/gems\/|^<internal:|\/lib\/ruby\/\d|^\/usr\/lib\/ruby\//;
// `rails test test/models/user_test.rb:12`: the rerun line Rails prints under each failure.
const RERUN = /^(?:bin\/)?rails test (\S+?):(\d+)$/;

function methodName(raw: string): string {
  return raw.replace(/^block (?:\(\d+ levels\) )?in /, '').replace(/^.*[#.]/, '');
}

/** Reads Minitest's `1) Failure:` / `1) Error:` blocks: the test and its `[file:line]`, the message, an error's trace. */
export const minitestMatcher: Matcher = {
  id: 'minitest',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    for (let i = 0; i < lines.length; i++) {
      const start = lines[i]!.text.length <= MAX_LINE ? START.exec(lines[i]!.text) : null;
      const name = start && lines[i + 1] ? NAME.exec(lines[i + 1]!.text) : null;
      if (!start || !name) continue;
      const test = name[2] ?? name[3]!;
      const related = [lines[i]!.n, lines[i + 1]!.n];
      const message: LogLine[] = [];
      const frames: { n: number; path: string; line: number; fn: string }[] = [];
      let j = i + 2;
      for (; j < lines.length && lines[j]!.text.trim() !== '' && j - i < MAX_BLOCK * 4; j++) {
        const l = lines[j]!;
        if (related.length < MAX_BLOCK) related.push(l.n);
        const f = FRAME.exec(l.text);
        if (f) frames.push({ n: l.n, path: f[1]!, line: Number(f[2]), fn: methodName(f[3]!) });
        else if (!frames.length) message.push(l);
      }
      const rerun = j + 1 < lines.length ? RERUN.exec(lines[j + 1]!.text) : null;
      if (rerun) related.push(lines[j + 1]!.n);
      // A failure names its line; an error's is the trace's entry in the test file.
      const testFrame = frames.find((f) => TEST_FILE.test(f.path) && f.fn === test) ?? frames.find((f) => TEST_FILE.test(f.path));
      const at = name[5] ? { path: name[5], line: Number(name[6]) } : testFrame;
      const s: Signal = { kind: 'test', symbol: test, message: message.map((l) => l.text.trim()).slice(0, 2).join(' ') || lines[i + 1]!.text,
        tool: 'minitest', category: 'test', weight: 0.9, logLine: message[0]?.n ?? lines[i + 1]!.n, related: related.filter((n) => n !== message[0]?.n) };
      if (at) Object.assign(s, { path: at.path, line: at.line });
      out.push(s);
      for (const f of frames) {
        if (f === testFrame) continue;
        out.push({ kind: 'frame', path: f.path, line: f.line, symbol: f.fn, message: `${f.fn} at ${f.path}:${f.line}`, tool: 'minitest',
          weight: LIBRARY.test(f.path) ? 0.05 : 0.6, logLine: f.n });
      }
      i = j - 1;
    }
    return out;
  },
};
