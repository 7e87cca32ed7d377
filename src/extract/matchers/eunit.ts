import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

const MAX_LINE = 2000;
/** Lines of one failure kept as related: the error term and the trace's first entries. */
const MAX_BLOCK = 40;
/** Lines read into one failure before giving up on its end (a truncated log). */
const MAX_SCAN = 200;
// eunit's own reporter: `  durations_tests: format_seconds_test...*failed*`; rebar3's: `  1) durations_tests:format_seconds_test/0`.
const PLAIN = /^\s*(\w+): (\w+?)(?: \(.*\))?\.\.\.(?:\[[\d.]+ s\] )?\*failed\*$/;
const REBAR = /^\s+\d+\) (\w+):(\w+)\/\d+(?:: .*)?$/;
// A run EUnit cancelled rather than failed: its reporter's `*** context setup failed ***` (any of eunit_lib's
// titles: `error reading file`, `test generator failed`, …), rebar3's `%% Unknown error: {abort, …`.
const CANCEL = /^\s*\*\*\* ([a-z][\w ]{0,60}) \*\*\*$/;
const REBAR_CANCEL = /^\s+%% (?:Unknown error: )?\{abort,\s*$|^\s+%% Unknown error: /;
// `in function durations:size_of/1 (/src/durations.erl, line 30)`, `in call from …`.
const CALL = /^(?:\*\*)?in (?:function|call from) ([\w']+):(.+?)\/\d+ \((.+?), line (\d+)\)$/;
// rebar3 prints the error term: `{file,"/src/durations.erl"},` then `{line,30}]}` (often on the next line).
const TERM_FILE = /\{file,\s*"([^"]+\.[eh]rl)"\}/;
// …or split across lines as the term printer wraps it: `{file,` at one line's end, `"/src/x.erl"},` on the next.
const TERM_FILE_CONT = /^\s*"([^"]+\.[eh]rl)"\}/;
// A stack entry opens with `{Module,Function,Args|Arity,`.
const TERM_ENTRY = /^\s*\[?\{(\w+),('[^']+'|\w+),/;
const TERM_LINE = /\{line,(\d+)\}/;
const OTP = /^(?:eunit_[\w]+|proc_lib|gen_server|erl_eval|lists|timer)\.erl$|\/lib\/erlang\/lib\//;
const END = /^\s*output:<<|^\s+Output: $|^\s*=+ EUnit =+$|^Finished in |^\s+\d+\) \w+:\w+\/\d+|^\s*\w+: \w+\.\.\.|^\s*\*\*\* [a-z][\w ]* \*\*\*$/;
// The module line eunit prints above a cancelled fixture: `module 'gproc_remote_tests'`.
const MODULE = /^\s*module '([^']+)'$/;

interface Loc { n: number; path: string; line: number; fn?: string }

/** Reads EUnit failures (eunit's verbose reporter and rebar3's), pinned to the test module's trace entry, src entries as frames. */
export const eunitMatcher: Matcher = {
  id: 'eunit',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    for (let i = 0; i < lines.length; i++) {
      const text = lines[i]!.text;
      if (text.length > MAX_LINE) continue;
      const cancel = text.includes('***') ? CANCEL.exec(text) : text.includes('%%') ? REBAR_CANCEL.exec(text) : null;
      const h = cancel ? null : text.includes('*failed*') ? PLAIN.exec(text) : REBAR.exec(text);
      if (!h && !cancel) continue;
      const above = i > 0 ? MODULE.exec(lines[i - 1]!.text) : null;
      const module = h ? h[1]! : above?.[1] ?? '';
      const test = h ? h[2]! : cancel![1] ?? 'setup_failed';
      const related: number[] = [];
      const locs: Loc[] = [];
      const message: string[] = [];
      let file: string | undefined;
      let fn: string | undefined;
      let split = false;
      let j = i + 1;
      for (; j < lines.length && j - i < MAX_SCAN; j++) {
        const l = lines[j]!;
        if (END.test(l.text)) break;
        if (related.length < MAX_BLOCK) related.push(l.n);
        const c = CALL.exec(l.text);
        if (c) {
          locs.push({ n: l.n, path: c[3]!, line: Number(c[4]), fn: c[2]!.replace(/^'|'$/g, '') });
          continue;
        }
        const e = TERM_ENTRY.exec(l.text);
        if (e && e[1] !== 'file' && e[1] !== 'line') fn = e[2]!.replace(/^'|'$/g, '');
        const f = TERM_FILE.exec(l.text) ?? (split ? TERM_FILE_CONT.exec(l.text) : null);
        split = l.text.trimEnd().endsWith('{file,');
        if (f) file = f[1];
        const ln = file ? TERM_LINE.exec(l.text) : null;
        if (ln) {
          locs.push({ n: l.n, path: file!, line: Number(ln[1]), ...(fn ? { fn } : {}) });
          file = undefined;
          fn = undefined;
        }
        if (!f && !ln && message.length < 3 && l.text.trim() !== '') message.push(l.text.trim());
      }
      // The test module's own entry is where its assertion sits; entries before it are the code under test.
      // A cancelled run asserted nothing: what crashed (a fixture's setup, a generator) is the trace's top
      // entry outside OTP, and the test module's own line below it only called it.
      const inTest = cancel
        ? locs.find((l) => !OTP.test(l.path))
        : locs.find((l) => l.fn === test) ?? locs.find((l) => l.path.endsWith(`/${module}.erl`) || l.path === `${module}.erl`);
      if (cancel && above) related.unshift(lines[i - 1]!.n);
      const s: Signal = { kind: 'test', symbol: test, message: message.join(' ') || `${module}:${test}`, tool: 'eunit', category: 'test',
        weight: 0.9, logLine: lines[i]!.n, related };
      if (inTest) Object.assign(s, { path: inTest.path, line: inTest.line });
      out.push(s);
      for (const l of locs) {
        if (l === inTest) continue;
        const frame: Signal = { kind: 'frame', path: l.path, line: l.line, message: `${l.fn ?? '?'} at ${l.path}:${l.line}`, tool: 'eunit',
          weight: OTP.test(l.path) ? 0.05 : 0.6, logLine: l.n };
        if (l.fn) frame.symbol = l.fn;
        out.push(frame);
      }
      i = j - 1;
    }
    return out;
  },
};
