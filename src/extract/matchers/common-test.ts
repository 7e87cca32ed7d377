import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

const MAX_LINE = 2000;
/** Failed cases read per log: one broken helper can fail every case of every suite; the first ones say enough. */
const MAX_FAILURES = 50;
/** Lines of one failure's reason term kept (the term printer wraps a stack of ~6 entries over ~20 lines). */
const MAX_TERM = 40;
/** Characters of the reason quoted in the message. */
const MAX_REASON = 200;
// rebar3's Common Test reporter (cth_readable): `%%% recon_lib_SUITE ==> scheduler_usage_diff: FAILED`
// (a grouped case is `group.case`), then `%%% recon_lib_SUITE ==> {{badmatch,[{1,1.0}]},` and the rest
// of the term on the lines under it.
const FAILED = /^%%% (\w+) ==> ([\w.]+): FAILED$/;
const REASON = /^%%% (\w+) ==> ?(.*)$/;
// What ends the reason term: the next `%%%` line, a run of progress dots, or rebar3's summary.
const END = /^%%% |^\.+$|^(?:Failed|Skipped|Passed|All) \d+ tests|^EXPERIMENTAL: |^===> /;
// One stack entry's location inside the joined term: `{file,"/…/src/recon_lib.erl"},{line,178}`.
const LOCATION = /\{file,\s*"([^"]+\.[eh]rl)"\},\s*\{line,\s*(\d+)\}/g;
// The entry that location belongs to opens with `{Module,Function,`: the last opener before it.
const OPENER = /\{([a-z]\w*|'[^']+'),([a-z]\w*|'[^']+'),/g;
// OTP's own modules print bare file names (`test_server.erl`) or paths into the Erlang install.
const OTP = /^[^/]+$|\/lib\/erlang\/lib\//;

interface Frame { path: string; line: number; module: string; fn: string }

/** Frames of an Erlang stack term, in order: only entries that carry a file and line. */
function framesOf(term: string): Frame[] {
  const out: Frame[] = [];
  for (const m of term.matchAll(LOCATION)) {
    let opener: RegExpExecArray | undefined;
    const before = term.slice(0, m.index);
    for (const o of before.matchAll(OPENER)) if (o[1] !== 'file' && o[1] !== 'line') opener = o as RegExpExecArray;
    out.push({ path: m[1]!, line: Number(m[2]), module: opener?.[1] ?? '?', fn: (opener?.[2] ?? '?').replace(/^'|'$/g, '') });
  }
  return out;
}

/** The reason's head, from the term's first line: `{{badmatch,[{1,1.0}]},` → `{badmatch,[{1,1.0}]}`, `{badarg,[…` → `badarg`. */
function reasonOf(first: string): string {
  return /^\{(\{\w+,.*\}),?$/.exec(first)?.[1] ?? /^\{(\w+),/.exec(first)?.[1] ?? first;
}

/**
 * Reads Common Test failures as rebar3 reports them (`%%% suite ==> case: FAILED` and the reason term),
 * pinned to the first stack entry in the repository: the suite's own line for a failed match, the code
 * under test for a crash inside it. The other entries become frames.
 */
export const commonTestMatcher: Matcher = {
  id: 'common-test',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    let failures = 0;
    for (let i = 0; i < lines.length && failures < MAX_FAILURES; i++) {
      const text = lines[i]!.text;
      if (text.length > MAX_LINE || !text.endsWith(': FAILED')) continue;
      const h = FAILED.exec(text);
      if (!h) continue;
      const [, suite, tc] = h;
      const related: number[] = [];
      const term: string[] = [];
      const at: number[] = []; // the log line each term piece came from
      let j = i + 1;
      const r = j < lines.length ? REASON.exec(lines[j]!.text) : null;
      if (r && r[1] === suite) {
        related.push(lines[j]!.n);
        term.push(r[2]!);
        at.push(lines[j]!.n);
        for (j++; j < lines.length && term.length < MAX_TERM; j++) {
          const t = lines[j]!.text;
          if (t.length > MAX_LINE || END.test(t) || t.trim() === '') break;
          related.push(lines[j]!.n);
          term.push(t.trim());
          at.push(lines[j]!.n);
        }
      }
      failures++;
      const joined = term.join('');
      const frames = framesOf(joined);
      // Which log line a frame's `{line,N}` sits on, for its Signal.logLine.
      const lineOf = (f: Frame): number => {
        const k = term.findIndex((t) => t.includes(`{line,${f.line}}`));
        return k >= 0 ? at[k]! : lines[i]!.n;
      };
      const pin = frames.find((f) => !OTP.test(f.path));
      const reason = reasonOf(term[0] ?? '').slice(0, MAX_REASON);
      const s: Signal = { kind: 'test', symbol: tc!, message: `${suite}:${tc} failed${reason ? `: ${reason}` : ''}`, tool: 'common-test',
        category: 'test', weight: 0.9, logLine: lines[i]!.n, related };
      if (pin) Object.assign(s, { path: pin.path, line: pin.line });
      out.push(s);
      // OTP's entries (test_server, lists) are never in the repository: no frame for them.
      for (const f of frames) {
        if (f === pin || OTP.test(f.path)) continue;
        out.push({ kind: 'frame', path: f.path, line: f.line, symbol: f.fn, message: `${f.module}:${f.fn} at ${f.path}:${f.line}`,
          tool: 'common-test', weight: 0.6, logLine: lineOf(f) });
      }
      i = j - 1;
    }
    return out;
  },
};
