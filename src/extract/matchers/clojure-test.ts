import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

const MAX_LINE = 2000;
/** Failures read per log: one broken helper fails every assertion that calls it. */
const MAX_FAILURES = 50;
/** Lines of one failure read (its context, expected/actual and the trace's first frames). */
const MAX_BLOCK = 60;
/** Lines quoted with one failure: its context, expected/actual and the top of the trace. */
const MAX_RELATED = 16;
/** Frames of one trace turned into signals: the repository's frames come first, the runner's after. */
const MAX_FRAMES = 8;
// clojure.test, as `lein test` and the Clojure CLI's test runners print it:
// `FAIL in (test-find-first) (core_test.cljc:10)` / `ERROR in (test-dissoc-in) (RT.java:557)`.
const HEADER = /^(FAIL|ERROR) in \(([^)\s]+)\) \(([^():\s]+):(\d+)\)$/;
// lein names the test's namespace before each failure: `lein test :only medley.core-test/test-find-first`.
const ONLY = /^lein test :only ([\w.*+!?<>=-]+)\/\S+$/;
// A trace frame: ` at clojure.lang.RT.seqFrom (RT.java:557)`, `    medley.core$dissoc_in.invokeStatic (core.cljc:27)`.
const FRAME = /^\s+(?:at )?([\w.*+!?<>=-]+?)(?:\$([\w*+!?<>=-]+?)(?:\$[\w$*+!?<>=-]+)?)?(?:\.(?:invoke\w*|doInvoke|applyTo\w*)|\/([\w*+!?<>=-]+))? \(([\w.-]+\.clj[cs]?):(\d+)\)$/;
// Namespaces of Clojure itself, the test runner and lein's injected code: never the repository's.
const RUNTIME = /^(?:clojure\.|leiningen\.|nrepl\.|user$|cognitect\.test-runner|kaocha\.)/;
const END = /^(?:FAIL|ERROR) in |^lein test |^Ran \d+ tests|^Testing /;

/** `medley.core-test` + `core_test.cljc` → `medley/core_test.cljc`: the file's path under the source root. */
function pathOf(ns: string | undefined, file: string): string {
  if (!ns) return file;
  const dir = ns.split('.').slice(0, -1).map((p) => p.replace(/-/g, '_')).join('/');
  return dir ? `${dir}/${file}` : file;
}

/**
 * Reads clojure.test failures (`FAIL in (name) (file:line)` with its expected/actual, `ERROR in` with the
 * exception's trace): a failed assertion is pinned to its line, an error to the first frame of the
 * repository's own code (the header names the JVM's throw site), the rest of the repository's frames as frames.
 */
export const clojureTestMatcher: Matcher = {
  id: 'clojure-test',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    let ns: string | undefined;
    let failures = 0;
    for (let i = 0; i < lines.length && failures < MAX_FAILURES; i++) {
      const text = lines[i]!.text;
      if (text.length > MAX_LINE) continue;
      const only = text.startsWith('lein test :only ') ? ONLY.exec(text) : null;
      if (only) ns = only[1];
      const h = text.endsWith(')') && (text.startsWith('FAIL in ') || text.startsWith('ERROR in ')) ? HEADER.exec(text) : null;
      if (!h) continue;
      failures++;
      const [, kind, test, file, line] = h;
      const related: number[] = [];
      const message: string[] = [];
      const frames: { path: string; line: number; symbol: string; n: number }[] = [];
      let j = i + 1;
      for (; j < lines.length && j - i <= MAX_BLOCK; j++) {
        const t = lines[j]!.text;
        if (END.test(t) || t.length > MAX_LINE) break;
        if (t.trim() === '') continue;
        if (related.length < MAX_RELATED) related.push(lines[j]!.n);
        const f = FRAME.exec(t);
        if (f) {
          // The class `medley.core$dissoc_in` is the var `dissoc-in`; `fn__661` is an anonymous fn of the namespace.
          const fn = (f[2] ?? f[3])?.replace(/_/g, '-');
          const symbol = fn && !/^fn(?:--\d+)?$/.test(fn) ? fn : f[1]!;
          const dup = frames.some((g) => g.line === Number(f[5]) && g.path === pathOf(f[1], f[4]!));
          if (!RUNTIME.test(f[1]!) && !dup && frames.length < MAX_FRAMES) frames.push({ path: pathOf(f[1], f[4]!), line: Number(f[5]), symbol, n: lines[j]!.n });
          continue;
        }
        if (/^\s*(?:expected|actual):/.test(t) && message.length < 2) message.push(t.trim());
      }
      const clj = /\.clj[cs]?$/.test(file!);
      const pin = kind === 'FAIL' || (clj && frames.length === 0) ? { path: pathOf(ns, file!), line: Number(line) } : frames[0];
      const s: Signal = { kind: 'test', symbol: test!, message: `${kind} in ${test}${message.length ? `: ${message.join(' ')}` : ''}`, tool: 'clojure-test',
        category: 'test', weight: 0.9, logLine: lines[i]!.n, related };
      if (pin) Object.assign(s, { path: pin.path, line: pin.line });
      out.push(s);
      for (const f of frames) {
        if (f === pin) continue;
        out.push({ kind: 'frame', path: f.path, line: f.line, symbol: f.symbol, message: `${f.symbol} at ${f.path}:${f.line}`, tool: 'clojure-test',
          weight: 0.6, logLine: f.n });
      }
      i = j - 1;
    }
    return out;
  },
};
