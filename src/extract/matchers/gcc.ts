import type { Category, LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';
import { TEST_FAILURE_IN_COMPILER_SHAPE } from '../../evidence/vocabulary.js';

const MAX_LINE = 4000;
// Column is optional: older gcc, `-fno-show-column` and assemblers print `file.c:12: error: …`.
const DIAGNOSTIC = /^(.+?):(\d+)(?::(\d+))?: (fatal error|error|warning|note): (.*)$/;
// mypy and friends print the same `path:12: error:` shape, so only C-family sources count (and
// extensionless C++ standard headers like `/usr/include/c++/12/vector`).
// GCC's other front ends print the same shape: GDC (`.d`, `.di`) and GNAT (`.adb`, `.ads`).
const C_FAMILY = /(?:\.(?:c|h|cc|cp|cpp|cxx|c\+\+|hh|hpp|hxx|h\+\+|inl|ipp|tcc|ixx|cppm|m|mm|cu|cuh|s|S|i|ii|d|di|adb|ads)|\/[^./]+)$/;
const CONTEXT = /^(.+?): In (?:static |member |)?(?:function|constructor|destructor|instantiation of|lambda function) [‘'`](.+)[’']:$/;
// GNU ld prefixes lines with its own path (`/usr/bin/ld: `, `x86_64-linux-gnu-ld: `); lld with `ld.lld: `.
const LD_PREFIX = /^(?:\S*\/)?(?:[\w.-]*-)?ld(?:\.\w+)?: /;
const LD_IN_FUNCTION = /: in function [`'‘](.+?)['’]:$/;
// `main.c:(.text+0xb4): undefined reference to `f'` (no -g), or `main.c:14: undefined reference …` (-g);
// the object file may come first: `main.o:main.c:(.text+0x1a): …`. Split on the phrase, not by regex,
// so a line full of `:(` cannot make the scan quadratic.
const LD_PHRASE = /: (undefined reference to|multiple definition of) [`'‘](.+?)['’]/;
const LLD_UNDEFINED = /^error: (undefined symbol|duplicate symbol): (.+)$/;
const LLD_REFERENCED = /^>>> referenced by (\S+?):(\d+)/;
const LD_MISSING_LIB = /cannot find -l\S+|library not found for -l\S+/;
const XCTEST = /^-\[[\w.]+ \w+\] : /;
// A test runner's status label before the place (`[   LINE   ] --- tests/t.c:41: error: Failure!`, cmocka)
// makes it a failed assertion's report, not a compiler's: the evidence finder reads it as a test failure.
const RUNNER_LABEL = /^\[\s*[A-Z]+\s*\]/;
// A test runner's failure in gcc's shape (CppUTest's `tests/a.cpp:39: error: Failure in TEST(Group, Name)`):
// the message says a test failed, so the evidence finder reads it as a test failure, not a compile error.
const RUNNER_FAILURE = TEST_FAILURE_IN_COMPILER_SHAPE;
// clang-tidy's findings end in their check's name (`[bugprone-x]`, not the compiler's `[-Wx]`): clang-tidy.ts reads them.
const CLANG_TIDY_CHECK = / \[[a-z]+(?:-[\w.]+)+(?:,-warnings-as-errors)?\]$/;
const MISSING_HEADER = /: No such file or directory$|file not found$/;
// The lines gcc prints above a diagnostic to say how it got there: the include chain (`In file included
// from a.h:3,` / `                 from b.c:1:`) and a template's `x.h:93:39:   required from …` trail.
const INCLUDED_FROM = /^In file included from \S+:\d+(?::\d+)?[,:]$|^\s+from \S+:\d+(?::\d+)?[,:]$/;
const REQUIRED_FROM = /^\S+:\d+:(?:\d+:)?\s+(?:required|recursively required|required by substitution of) (?:from|by)\b/;
// gcc's source excerpt under a diagnostic: `  418 |   code`, `      |   ^~~`, a fix-it `  +++ |+#include <stdio.h>`.
const EXCERPT = /^\s*(?:\d+\s*|\+\+\+\s*)?\|/;
// `cc1: all warnings being treated as errors`: why the warning above failed the build, quoted with it.
const WERROR = /^cc1(?:plus|obj)?: (?:all )?(?:some )?warnings being treated as errors$/;
/** How many lines of an include chain and template trail gcc may print above one diagnostic. */
const MAX_DIAGNOSTIC_HEAD = 40;

/**
 * The caret line of an excerpt printed without gcc's `  418 |` gutter (clang, and gcc before 9): only spaces,
 * `~` and one `^` marking the column (`            ~~~ ^ ~~~~~~~~~`), under the source line it points into.
 */
const CARET_LINE = /^[~\s]*\^[~\s]*$/;

/** The index of the last line of the excerpt under line `i` (`i` itself when there is none), and a `cc1: … as errors` after it. */
function excerptEnd(lines: readonly LogLine[], i: number): number {
  let j = i;
  // Without a gutter the excerpt is the source line and the caret line under it: both belong to the diagnostic.
  if (i + 2 < lines.length && !EXCERPT.test(lines[i + 1]!.text) && CARET_LINE.test(lines[i + 2]!.text) && lines[i + 1]!.text.trim() !== '') j = i + 2;
  while (j + 1 < lines.length && j - i < MAX_DIAGNOSTIC_HEAD && EXCERPT.test(lines[j + 1]!.text)) j++;
  if (j + 1 < lines.length && WERROR.test(lines[j + 1]!.text)) j++;
  return j;
}

/**
 * A report about a doc comment, in the same header (Doxygen's `a.h:12: error: argument 'x' of command @param is not
 * found …`, `… is not documented:`; clang's `-Wdocumentation`): a documentation check on code that builds.
 */
const DOC_REPORT = /\b(?:is|are) not documented\b|(?:^|\s)[@\\](?:param|tparam|returns?|retval|throws?|exception)\b|\[-Wdocumentation/;

function categoryOf(severity: string, message: string, snippet: string): Category {
  if (DOC_REPORT.test(message)) return 'lint';
  if (severity !== 'fatal error' && !message.endsWith("' file not found")) return 'compile';
  if (!MISSING_HEADER.test(message)) return 'compile';
  // A quoted include names the project's own header: renaming it is a code bug, not a missing package.
  return /#\s*include\s*"/.test(snippet) ? 'compile' : 'dependency';
}

/**
 * Where ld says the reference is: `main.o:main.c:(.text+0x1a)` → `main.c` (no line without -g),
 * `/src/main.c:14` → path and line. An object or archive name is not a source path, so it is dropped.
 */
function locateReference(prefix: string): { path?: string; line?: number } {
  let path = prefix;
  let line: number | undefined;
  if (prefix.endsWith(')')) {
    const open = prefix.lastIndexOf(':(');
    if (open < 0) return {};
    path = prefix.slice(0, open);
  } else {
    const m = /:(\d+)$/.exec(prefix);
    if (m) {
      path = prefix.slice(0, m.index);
      line = Number(m[1]);
    }
  }
  path = path.slice(path.lastIndexOf(':') + 1);
  if (path === '' || /\.(?:o|a|so|obj|lib)$/.test(path)) return {};
  return line === undefined ? { path } : { path, line };
}

/** `void A::f(int)` → `A::f`: the name a grep finds, without return type and parameters. */
function functionName(signature: string): string {
  const head = signature.split('(')[0]!.trim();
  const space = head.lastIndexOf(' ');
  return (space >= 0 ? head.slice(space + 1) : head).replace(/^[*&]+/, '');
}

/** Reads gcc/clang diagnostics (`file.c:12:5: error: …`, `In function 'f':`) and GNU ld / lld link errors. */
export const gccMatcher: Matcher = {
  id: 'gcc',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    // The latest `file: In function 'f':` line; it names the function for that file's next diagnostics.
    let context: { n: number; file: string; symbol: string } | undefined;
    let last: Signal | undefined;
    // The include chain, `In function` line and template trail printed just above the next diagnostic: its head.
    let head: number[] = [];
    for (let i = 0; i < lines.length; i++) {
      const { n, text: raw } = lines[i]!;
      if (raw.length > MAX_LINE || !raw.includes(':')) {
        head = [];
        continue;
      }
      if (INCLUDED_FROM.test(raw)) {
        if (raw.startsWith('In file')) head = [];
        if (head.length < MAX_DIAGNOSTIC_HEAD) head.push(n);
        continue;
      }
      if (head.length && head.length < MAX_DIAGNOSTIC_HEAD && REQUIRED_FROM.test(raw)) {
        head.push(n);
        continue;
      }
      const ld = LD_PREFIX.exec(raw);
      const text = ld ? raw.slice(ld[0].length) : raw;
      const ctx = text.includes(': In ') ? CONTEXT.exec(text) : null;
      if (ctx) {
        context = { n, file: ctx[1]!, symbol: functionName(ctx[2]!) };
        if (!ld && head.length < MAX_DIAGNOSTIC_HEAD) head.push(n);
        continue;
      }
      const above = head;
      head = [];
      const inFn = LD_IN_FUNCTION.exec(text);
      if (ld && inFn) {
        context = { n, file: '', symbol: inFn[1]! };
        continue;
      }
      const d = ld || !text.includes(': ') ? null : DIAGNOSTIC.exec(text);
      // `Tests.m:12: error: -[Suite test] : …` is an XCTest assertion, not clang: xctest.ts reads it.
      if (d && C_FAMILY.test(d[1]!) && !RUNNER_LABEL.test(d[1]!) && !RUNNER_FAILURE.test(d[5]!) && !XCTEST.test(d[5]!) && !CLANG_TIDY_CHECK.test(d[5]!)) {
        const [, path, line, column, severity, message] = d;
        const end = excerptEnd(lines, i);
        if (severity === 'note') {
          // Notes ("declared here", "required from here") explain the diagnostic above them.
          if (last?.related && last.blockEnd !== undefined) {
            last.related.push(n);
            last.blockEnd = lines[end]!.n;
          } else last?.related?.push(n);
          i = end;
          continue;
        }
        const fn = context?.file === path ? context : undefined;
        const related = above.length ? above : fn ? [fn.n] : [];
        last = {
          kind: 'diagnostic',
          path: path!,
          line: Number(line),
          ...(column ? { column: Number(column) } : {}),
          ...(fn ? { symbol: fn.symbol } : {}),
          message: message!,
          tool: 'gcc',
          severity: severity === 'warning' ? 'warning' : 'error',
          category: categoryOf(severity!, message!, lines[i + 1]?.text ?? ''),
          weight: severity === 'warning' ? 0.3 : 1.0,
          logLine: n,
          related,
          // The diagnostic ends with its excerpt (and its notes, above): what gcc prints next is the next one.
          blockEnd: lines[end]!.n,
        };
        out.push(last);
        i = end;
        continue;
      }
      const u = text.includes('undefined reference') || text.includes('multiple definition') ? LD_PHRASE.exec(text) : null;
      if (u) {
        const where = locateReference(text.slice(0, u.index));
        last = {
          kind: 'diagnostic',
          ...where,
          symbol: u[2]!,
          message: `${u[1]} \`${u[2]}'`,
          tool: 'gcc',
          severity: 'error',
          category: 'compile',
          weight: 1.0,
          logLine: n,
          related: context?.file === '' ? [context.n] : [],
        };
        out.push(last);
        continue;
      }
      const lld = LLD_UNDEFINED.exec(text);
      if (lld && ld) {
        const ref = LLD_REFERENCED.exec(lines[i + 1]?.text ?? '');
        last = {
          kind: 'diagnostic',
          ...(ref ? { path: ref[1]!, line: Number(ref[2]) } : {}),
          symbol: lld[2]!,
          message: `${lld[1]}: ${lld[2]}`,
          tool: 'gcc',
          severity: 'error',
          category: 'compile',
          weight: 1.0,
          logLine: ref ? lines[i + 1]!.n : n,
          related: ref ? [n] : [],
        };
        out.push(last);
        continue;
      }
      if (ld && LD_MISSING_LIB.test(text)) {
        out.push({ kind: 'diagnostic', message: raw, tool: 'gcc', category: 'dependency', weight: 0.8, logLine: n });
      }
    }
    return out;
  },
};
