import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

const MAX_LINE = 2000;
/** Errors read per log: one bad macro fails every package that loads it. */
const MAX_ERRORS = 50;
// `ERROR: /home/runner/work/x/x/pkg/BUILD:1:8: In rule 'check', size 'smal' is not a valid size.` — and
// `.bzl` files, and actions: `ERROR: /…/pkg/BUILD:3:10: Compiling pkg/a.cc failed: (Exit 1): gcc failed: …`.
const ERROR = /^ERROR: (\/\S+?|[\w.-][\w./-]*?):(\d+):(\d+): (.*)$/;
// Bazel's own copies of external repositories (`<output_base>/external/bazel_tools/…`) are not the checkout.
const EXTERNAL = /\/external\//;
// A failed action reports the tool that failed; that tool's own matcher pins its error.
const ACTION = / failed: \(Exit \d+\)|failed \(Exit \d+\)| failed: error executing /;
/**
 * The files Bazel itself reads and reports on: BUILD and WORKSPACE files, MODULE.bazel, Starlark. Other tools
 * print the same `ERROR: /path:l:c:` (SWI-Prolog's `ERROR: /x/base32.pl:114:8: Syntax error`): those are
 * Bazel's only when the message is one of its failed actions.
 */
const BAZEL_FILE = /(?:^|\/)(?:BUILD|BUILD\.bazel|WORKSPACE(?:\.bazel|\.bzlmod)?|MODULE\.bazel|[^/]+\.(?:bzl|bazel|star|sky))$/;

/** Reads Bazel's `ERROR: file:line:col: …` lines: BUILD/.bzl errors pinned to their line; a failed action named by its target's line. */
export const bazelMatcher: Matcher = {
  id: 'bazel',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    for (const { n, text } of lines) {
      if (out.length >= MAX_ERRORS) break;
      if (text.length > MAX_LINE || !text.startsWith('ERROR: ')) continue;
      const e = ERROR.exec(text);
      if (!e || EXTERNAL.test(e[1]!)) continue;
      const action = ACTION.test(e[4]!);
      if (!action && !BAZEL_FILE.test(e[1]!)) continue;
      const s: Signal = { kind: 'diagnostic', path: e[1]!, line: Number(e[2]), column: Number(e[3]), message: e[4]!.trim(), tool: 'bazel',
        severity: 'error', weight: action ? 0.4 : 1, logLine: n };
      // A BUILD or .bzl file that does not load is the configuration's error; an action's is whatever failed inside it.
      if (!action) s.category = 'compile';
      out.push(s);
    }
    return out;
  },
};
