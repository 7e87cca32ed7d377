import type { Category, LogLine, Signal } from '../types.js';
import type { Block } from './block.js';
import { isFrame } from './vocabulary.js';

/**
 * Source-file extensions a location may name. Without a checkout this is all that tells `lib/x.ex:12`
 * from `example.com:443` or `12:30:45`; with one, the path must also map onto it (from-signals).
 */
const EXT =
  'c|cc|cpp|cxx|h|hh|hpp|hxx|ipp|inl|m|mm|swift|java|kt|kts|scala|sc|groovy|gradle|clj|cljs|cljc|edn|cs|fs|vb|go|rs|py|pyx|pxd|rb|rake|erb|php|phpt|pl|pm|t|lua|r|R|Rmd|jl|hs|lhs|ml|mli|ex|exs|erl|hrl|elm|dart|js|jsx|mjs|cjs|ts|tsx|mts|cts|coffee|litcoffee|vue|svelte|css|scss|sass|less|styl|html|htm|md|rst|adoc|asciidoc|tex|sh|bash|zsh|ps1|bats|tf|hcl|nix|zig|nim|cr|d|f|f90|f95|for|ada|adb|ads|pas|pp|lpr|dpr|tcl|scm|rkt|vala|awk|vim|cmake|mk|proto|sql|graphql|lisp|lsp|cl|el|asd|asm|nasm|vhd|vhdl|sml|pike|pmod|rexx|ss|sls|sps|raku|rakumod|rakutest|pm6|p6|thrift|capnp|st|yml|yaml|json|toml|xml|ini|cfg|conf|lock|txt|in|ac|am|dockerfile';
const PATH = String.raw`((?:[A-Za-z]:)?[\w.@~+/\\-]*?[\w@+-]\.(?:${EXT}))(?![\w-])`;
/**
 * Any file name with an extension, for the one form that says by itself it is a location: the GNU
 * standard's diagnostic header leading the line. A toolchain nobody listed (Verilog's `.v`, Bison's `.y`,
 * COBOL's `.cob`, a manual page's section `.1`, `.3p`) writes it too; with a checkout the path must still
 * map onto a file there. Host names
 * (`registry.example.com:443: …`) are the only common look-alike: their endings are left out, unless a
 * directory leads the name (BIND's `bind/db.local:15:`, `ci/build.sh:3:`): a host has none (a URL's `//`
 * is read as one and dropped with the URL).
 */
const ANY_EXT = String.raw`(?:[A-Za-z][\w+-]{0,9}|\d[a-z]{0,2})`;
const ANY_PATH = String.raw`((?:[A-Za-z]:)?(?:[\w.@~+\\-]*\/)+[\w.@~+-]*?[\w@+-]\.${ANY_EXT}|(?:[A-Za-z]:)?[\w.@~+\\-]*?[\w@+-]\.(?!(?:com|org|net|io|dev|app|co|edu|gov|local|internal|cloud|ai|sh)\b)${ANY_EXT})(?![\w-])`;
/**
 * A severity label some tools put before the file (`ERROR: /x/a.pl:12:5:`, `Error: a.dot: …`), its one
 * letter (appstreamcli's and rpmlint's `E: a.xml:30:`), or the severity with the phase it failed in
 * (jsonnet's `STATIC ERROR: a.jsonnet:36:24-29:`, `Syntax error: …`, `Fatal error: …`).
 */
const SEVERITY_LABEL = String.raw`(?:(?:(?:[A-Z][A-Za-z]{1,15} )?(?:ERROR|Error|error|WARNING|Warning|warning)|[EWF]):\s+)?`;
/**
 * Build files named without an extension, which GNU make and others name in the same header
 * (`Makefile:13: *** missing separator.  Stop.`): the error names the build file, so it is the pin.
 */
const BUILD_FILE = String.raw`(?:[\w.@~+-]+/)*(?:GNUmakefile|[Mm]akefile|Dockerfile|Containerfile|Jenkinsfile|Vagrantfile|Rakefile|Gemfile|Brewfile|[Jj]ustfile|Snakefile|Earthfile|Tiltfile)(?![\w.-])`;
/**
 * A program's own name before the file (`m4:loop.m4:11:`, mandoc's `mandoc: samu.1:178:2:`; `sed: -e
 * expression …` is not one: no line).
 */
const PROGRAM_PREFIX = String.raw`(?:[a-z][\w.+-]{0,30}: ?)?`;
/**
 * GNU's `file:line:col:`, `file:line.col:`, `file:line.col-col:`, `file:line.col-line.col:`, `file:line-line:`
 * (Bison, Vala, m4, Icarus Verilog), ending in `:` then a message (Pike writes none between: `Colors.pmod:22:Undefined identifier`). An optional `ERROR: `/`Error: ` label may
 * lead (SWI-Prolog's `ERROR: /x/a.pl:12:5: Syntax error`).
 */
const GNU_HEADER = new RegExp(
  String.raw`^\s*${SEVERITY_LABEL}${PROGRAM_PREFIX}(${ANY_PATH}|${BUILD_FILE}):(\d+)(?:[.:](\d+))?(?:-\d+(?:\.\d+)?)?:(?:\s|$|(?=[A-Z][a-z]))`,
  'g',
);

/**
 * A place alone on its line (a severity label or a report's number in brackets may lead it, a JSON pointer into
 * the document may follow it): its report's words are printed below it, over a code frame (pug, ReScript, Redocly).
 */
const PLACE_ALONE = new RegExp(
  String.raw`^\s*(?:${SEVERITY_LABEL}|\[\d+\]\s+)${ANY_PATH}:(\d+)(?::(\d+))?(?:-\d+(?::\d+)?)?(?: at #\S*)?\s*$`,
);
// (not Node's throw site above an uncaught error, `/x/node_modules/nearley/lib/nearley.js:346` over `throw err;`: the
// tool's own code)
export const isPlaceAlone = (text: string): boolean => text.length < 2000 && PLACE_ALONE.test(text) && !INSTALLED_CODE.test(text);

/** Each location form, with which group is the path, the line, the column. */
const FORMS: readonly { re: RegExp; path: number; alt?: number; line: number; col?: number }[] = [
  // The GNU header, any file name (see GNU_HEADER); tried first so its column forms are read whole
  { re: GNU_HEADER, path: 1, line: 3, col: 4 },
  // Python, and anything quoting its path: `File "a/b.py", line 12`
  { re: new RegExp(String.raw`${PATH}", line (\d+)`, 'g'), path: 1, line: 2 },
  // PHP's and MSBuild's `file(12)`, `file(12,5)`; .NET's `file(12,5): error CS…`; Nim's `file(12, 5) Error:`
  { re: new RegExp(String.raw`${PATH}\((\d+)(?:,\s?(\d+))?\)`, 'g'), path: 1, line: 2, col: 3 },
  // bash's and sh's `script.sh: line 12: …`, JSHint's `a.js: line 12, col 5, …`; a shell script often has no
  // extension, so here a path with a directory is enough (the words `: line N` say it is a location)
  { re: new RegExp(String.raw`(?:${PATH}|((?:\.{0,2}/)?[\w.@~+-]+(?:/[\w.@~+-]+)+)): line (\d+)(?:, col (\d+))?\b`, 'g'), path: 1, alt: 2, line: 3, col: 4 },
  // dash's and POSIX sh's `bin/which: 43: Syntax error: …`: the file leads the line, the line number stands alone
  { re: new RegExp(String.raw`^(?:${PATH}|((?:\.{0,2}/)?[\w.@~+-]+(?:/[\w.@~+-]+)+)): (\d+): `, 'g'), path: 1, alt: 2, line: 3 },
  // GNU bc's `primes.b 15: syntax error`: the file leads the line, a space, then the line number and a colon
  { re: new RegExp(String.raw`^${ANY_PATH} (\d+): \S`, 'g'), path: 1, line: 2 },
  // zsh's `Functions/Misc/is-at-least:47: parse error near …`: GNU's header on a script without an extension;
  // a directory in the path and the message after `N: ` say it is a location (as for dash's form below). A
  // wrapped error's chain may lead it, each cause after `: ` (Go's, as Caddy prints it: `Error: adapting config
  // using caddyfile: caddy/Caddyfile:19: unrecognized directive: x`). A column may follow the line, as in GNU's
  // own header (bashate's and shellcheck's `libexec/pyenv-version-file-read:23:1: E011 …`)
  { re: new RegExp(String.raw`(?:^|: )((?:\.{0,2}/)?[\w.@~+-]+(?:/[\w.@~+-]+)+):(\d+)(?::(\d+))?: (?=\S)`, 'g'), path: 1, line: 2, col: 3 },
  // The Korn shells' and FreeRADIUS' `mksh/mkshrc[249]: syntax error: …`, `radiusd.conf[12]: Parse error …`: the file
  // leads the report (after a severity label or the program's name), its line in brackets, then a colon. A script
  // or a configuration file often has no extension, so a directory will do; an array's `x[3]:` has neither
  { re: new RegExp(String.raw`^\s*${SEVERITY_LABEL}${PROGRAM_PREFIX}(?:${ANY_PATH}|((?:\.{0,2}\/)?[\w.@~+-]+(?:\/[\w.@~+-]+)+))\[(\d+)\]: \S`, 'g'), path: 1, alt: 2, line: 3 },
  // Spin's `spin: a.pml:36, Error: undeclared variable: x`: the file and line, a comma, then the severity
  { re: new RegExp(String.raw`^\s*${PROGRAM_PREFIX}${ANY_PATH}:(\d+), (?:[Ee]rror|ERROR|[Ww]arning|WARNING)\b`, 'g'), path: 1, line: 2 },
  // fish's `share/functions/a.fish (line 48): …`: the file leads the line, its line in parentheses after a
  // space, so any extension will do; `a.x (line 3, column 5)` alike
  { re: new RegExp(String.raw`^\s*${SEVERITY_LABEL}${ANY_PATH} \(line (\d+)(?:,\s*col(?:umn)? (\d+))?\)`, 'g'), path: 1, line: 2, col: 3 },
  // GNU sed's `sed: file examples/dc.sed line 45: unterminated \`s' command`, Icon's `File base64.icn; Line 58 # …`:
  // the word `file` before the path and `line` after it say it is a location, so any extension will do
  // rsyslog's `error during parsing file rsyslog/rsyslog.conf, on or before line 31: …` says how near alike
  { re: new RegExp(String.raw`\b[Ff]ile ["'\`]?${ANY_PATH}["'\`]?[,;]? (?:(?:on or )?(?:before|after) |on |at |near )?[Ll]ine (\d+)\b`, 'g'), path: 1, line: 2 },
  // gnuplot's `"airfoil.dem" line 130: undefined variable: thick`: a quoted file then ` line N`; the quotes
  // and the word say it is a location, so any extension will do (Varnish's VCC writes `('/x/default.vcl' Line 28 Pos 5)`)
  { re: new RegExp(String.raw`["'\`]${ANY_PATH}["'\`],? [Ll]ine (\d+)\b`, 'g'), path: 1, line: 2 },
  // A place heading its report alone, its line in brackets after a space (the flat assembler's `src/a.asm [21]:` over the
  // source line, a macro's own place after it as `src/ccall.inc [17] ccall [14]:`): the brackets and the closing colon
  // with nothing after say it is a place, so any extension will do
  { re: new RegExp(String.raw`^\s*${ANY_PATH} \[(\d+)\](?: [\w.@$?-]+ \[\d+\])*:\s*$`, 'g'), path: 1, line: 2 },
  // The file and its line as fields parted by ` : ` (Faust's `generator/noise.dsp : 30 : ERROR : syntax error, …`):
  // a path then a number between spaced colons, so any extension will do
  { re: new RegExp(String.raw`^\s*${ANY_PATH} : (\d+) : \S`, 'g'), path: 1, line: 2 },
  // A place given as character offsets that name their line (ATS' patsopt: `/x/a.dats: 3178(line=129, offs=50) --
  // 3180(line=129, offs=52): error(3): …`): the `line=` says it is a place, so any extension will do
  { re: new RegExp(String.raw`${ANY_PATH}: \d+\(line=(\d+), offs=(\d+)\)`, 'g'), path: 1, line: 2, col: 3 },
  // A place in brackets, a severity label may lead: Thrift's `[ERROR:/x/tutorial.thrift:127] (last token was …)`,
  // HAProxy's `parsing [haproxy.cfg:26] : …`
  { re: new RegExp(String.raw`\[(?:[A-Za-z]+:)?${ANY_PATH}:(\d+)\]`, 'g'), path: 1, line: 2 },
  // A server's report ending in its configuration file's place, which often has no extension: nginx's
  // `[emerg] unknown directive "x" in /etc/nginx/sites-enabled/default:60` (a directory in the path)
  { re: new RegExp(String.raw`\bin ((?:\.{0,2}/)?[\w.@~+-]+(?:/[\w.@~+-]+)+):(\d+)\s*$`, 'g'), path: 1, line: 2 },
  // A place after `in <file>: ` as line:column, a span's end may follow: Icinga's `Location: in
  // icinga2/conf.d/hosts.conf: 25:3-25:31`; the word and the column say it is a location, so any extension will do
  { re: new RegExp(String.raw`\bin ${ANY_PATH}: (\d+):(\d+)(?:-\d+:\d+)?\b`, 'g'), path: 1, line: 2, col: 3 },
  // Tcl's error trace `(file "tests/a.tcl" line 3)`
  { re: new RegExp(String.raw`\(file "${PATH}" line (\d+)\)`, 'g'), path: 1, line: 2 },
  // Perl::Critic's `lib/A.pm: message … at line 12, column 5.`, Graphviz's `Error: a.dot: syntax error in line
  // 11 near …`: the file leads the line (after a severity label), so any extension will do
  // ksh's `bin/zgrep: syntax error at line 202: \`fi' unexpected` alike: a script with a directory needs no extension
  { re: new RegExp(String.raw`^\s*${SEVERITY_LABEL}(?:${ANY_PATH}|((?:\.{0,2}\/)?[\w.@~+-]+(?:\/[\w.@~+-]+)+)): .*?\b(?:at|on|in) line (\d+)(?:, column (\d+))?`, 'g'), path: 1, alt: 2, line: 3, col: 4 },
  // A report naming its file after `error for` / `error in` and its line after `at line`, the file's context between
  // (AppArmor's `AppArmor parser error for apparmor.d/usr.bin.man in profile apparmor.d/usr.bin.man at line 24: …`)
  { re: new RegExp(String.raw`\b[Ee]rror (?:for|in) ["'\`]?${ANY_PATH}["'\`]?(?: in [a-z]{1,20} \S+)? at line (\d+)\b`, 'g'), path: 1, line: 2 },
  // `file:[12,5]`, `file:[12:5]`, and a space after the colon (luaparse's `data/a.lua: [45:18] ')' expected near 'x'`,
  // the Lua-in-JS parsers' way): a line and a column in brackets right after the file say it is a place, so any
  // extension will do
  { re: new RegExp(String.raw`${ANY_PATH}: ?\[(\d+)[,:]\s*(\d+)\]`, 'g'), path: 1, line: 2, col: 3 },
  // Perl's and Tcl's `at t/a.t line 12`, PHP's `in /x/a.php on line 12`, `in a.R at line 3`
  { re: new RegExp(String.raw`\b(?:at|in) ${PATH}(?: on| at)? line (\d+)`, 'g'), path: 1, line: 2 },
  // `line 12 of a/b.rb`, `line 12 in file a.sh`, Chez Scheme's `at line 24, char 1 of examples/unify.ss`, the one
  // true awk's `source line number 16 source file deps.awk`
  { re: new RegExp(String.raw`\bline (?:number )?(\d+)(?:, (?:char|col(?:umn)?) \d+)? (?:(?:of|in)(?: file)?|source file) ["'\`]?${ANY_PATH}`, 'g'), path: 2, line: 1 },
  // Erlang's `{file,"src/a.erl"},{line,12}`
  { re: new RegExp(String.raw`\{file,"${PATH}"\},\s*\{line,(\d+)\}`, 'g'), path: 1, line: 2 },
  // Dart's and Elm's frames `test/a_test.dart 12:5`
  { re: new RegExp(String.raw`(?:^|\s)${PATH} (\d+):(\d+)\b`, 'g'), path: 1, line: 2, col: 3 },
  // A quoted file, then its line: Hugs' `ERROR "Calendar.hs":39 - Undefined variable "x"`
  { re: new RegExp(String.raw`["'\`]${PATH}["'\`]:(\d+)(?::(\d+))?\b`, 'g'), path: 1, line: 2, col: 3 },
  // A file then the word `line` and its number, with no colon between (sshd's `ssh/sshd_config line 129: Directive …`,
  // lighttpd's `source: lighttpd/lighttpd.conf line: 59 pos: 0 parser failed …`, checkbashisms' `possible bashism in
  // bin/savelog line 203 (…)`): configuration files and scripts often have no extension, so a directory will do
  // (rsnapshot's `ERROR: rsnapshot/rsnapshot.conf on line 96:` puts `on` between); a colon may part them instead of
  // a space (the xa assembler's `xa65/pack_eng.a65:line 26: 0816:Label 'x' not defined`)
  { re: new RegExp(String.raw`(?:^|\s)(?:${ANY_PATH}|((?:\.{0,2}\/)?[\w.@~+-]+(?:\/[\w.@~+-]+)+))(?:,? |:)(?:on |at )?line:? (\d+)\b`, 'g'), path: 1, alt: 2, line: 3 },
  // A parser's exception naming the file, with the place in parentheses ending the line (Babel's and acorn's
  // `SyntaxError: /x/src/a.js: Unexpected token, expected "," (111:2)`)
  { re: new RegExp(String.raw`${PATH}: [^()\n]* \((\d+):(\d+)\)\s*$`, 'g'), path: 1, line: 2, col: 3 },
  // A template engine's file in parentheses, then its place in brackets (Nunjucks' `Template render error:
  // (src/a/template.njk) [Line 27, Column 4]`): the brackets and the words say it is a place, so any extension will do
  { re: new RegExp(String.raw`\(${ANY_PATH}\) \[[Ll]ine (\d+)(?:, [Cc]ol(?:umn)? (\d+))?\]`, 'g'), path: 1, line: 2, col: 3 },
  // A file, then its place in parentheses after a space (Rollup's `RollupError: index.js (27:17): Expected ')'` and
  // the `index.js (27:17)` over its code frame)
  { re: new RegExp(String.raw`(?:^|\s)${PATH} \((\d+):(\d+)\)`, 'g'), path: 1, line: 2, col: 3 },
  // A file and its place together in parentheses after the report (acorn's CLI: `Unexpected token (index.js 57:32)`)
  { re: new RegExp(String.raw`\(${PATH} (\d+):(\d+)\)`, 'g'), path: 1, line: 2, col: 3 },
  // A file, then the span it is about in brackets (jscpd's clone `response.js [295:20 - 305:55]`): its first line
  { re: new RegExp(String.raw`(?:^|\s)${PATH} \[(\d+):(\d+) - \d+:\d+\]`, 'g'), path: 1, line: 2, col: 3 },
  // A place alone on its line, its report printed below it over a code frame: pug's `Error: views/layout.pug:9:1`,
  // ReScript's indented `  /x/src/Router.res:66:32` under `We've found a bug for you!`, Redocly's numbered
  // `[1] openapi.yaml:85:17 at #/paths/…` (the JSON pointer into the document after it). Nothing but the place is
  // on the line, so any extension will do
  { re: new RegExp(PLACE_ALONE.source, 'g'), path: 1, line: 2, col: 3 },
  // The common `file:12`, `file:12:5` (compilers, linters, most runtimes' frames)
  { re: new RegExp(String.raw`${PATH}:(\d+)(?::(\d+))?`, 'g'), path: 1, line: 2, col: 3 },
];

/** A weight below every toolchain matcher's: a location read from a block's text is a lead, not a verdict. */
const HEADER_WEIGHT = 0.7;
const BODY_WEIGHT = 0.5;
const FRAME_WEIGHT = 0.5;
/** Locations read per block: a block is one failure; its first few locations say where. */
const MAX_PER_BLOCK = 8;

export interface Location {
  path: string;
  line: number;
  column?: number;
}

/** Every location form on one line, leftmost first, without double counting overlaps. */
export function locationsIn(text: string): Location[] {
  return located(text).map(({ at: _a, to: _t, form: _f, ...l }) => l);
}

function located(text: string): (Location & { at: number; to: number; form: number })[] {
  if (text.length > 2000) return [];
  const found: (Location & { at: number; to: number; form: number })[] = [];
  for (const [form, f] of FORMS.entries()) {
    f.re.lastIndex = 0;
    for (const m of text.matchAll(f.re)) {
      const at = m.index ?? 0;
      const to = at + m[0].length;
      if (found.some((x) => at < x.to && to > x.at)) continue;
      const path = (m[f.path] ?? (f.alt ? m[f.alt] : undefined) ?? '').replace(/^["'`(]+/, '');
      const line = Number(m[f.line]);
      if (!path || !Number.isInteger(line) || line < 1 || /^https?:|:\/\//.test(text.slice(Math.max(0, at - 8), at + 3))) continue;
      const col = f.col ? Number(m[f.col]) : NaN;
      found.push({ path, line, ...(Number.isInteger(col) && col > 0 ? { column: col } : {}), at, to, form });
    }
  }
  return found.sort((a, b) => a.at - b.at);
}

/**
 * A line that reports a place the way the block's header does: unindented, led by the same location
 * form (`Warning 15 in a.tex line 46:` above the header's `Warning 17 in a.tex line 57:`). A tool that
 * prints several reports in a row prints the first failure first: that one is the block's own place,
 * unless it only suspects one (then the first that states one).
 */
function firstReportLine(b: Block, byN: ReadonlyMap<number, string>): number {
  const header = byN.get(b.header) ?? '';
  const form = leadingForm(header);
  if (form === undefined) return b.header;
  const reports: { n: number; loc: Location | undefined; severity: string }[] = [];
  for (let n = b.start; n <= b.end; n++) {
    const text = byN.get(n);
    if (text === undefined || isFrame(text) || HEDGED.test(text) || (n !== b.header && POINTS_BACK.test(text)) || leadingForm(text) !== form) continue;
    reports.push({ n, loc: leadingLocation(text), severity: SEVERITY_WORD.exec(text)?.[0].toLowerCase() ?? '' });
  }
  const [first, ...rest] = reports;
  if (!first) return b.header;
  // The first report placed below every later one of the same file and severity: the tool held it back
  // until it saw the end of what broke (mandoc's `Sh breaks Bl` at the next section, printed before the
  // `It` lines it misread from line 178 on); the earliest place is where the failure starts. (A pair
  // such as lacheck's `<- unmatched \end` at 46 then `-> unmatched \begin` at 8 has a later report below the first.)
  const f = first.loc;
  if (f && rest.length && rest.every((r) => r.loc && r.loc.path === f.path && r.loc.line < f.line && r.severity === first.severity)) {
    return rest.reduce((a, r) => (r.loc!.line < a.loc!.line ? r : a)).n;
  }
  return first.n;
}

/**
 * A report that points back to where a clashing thing was first given (Cap'n Proto's `a.capnp:165:8-9: error:
 * Ordinal @2 originally used here.` under its `Duplicate ordinal number.` at line 170, gcc's `previous
 * definition`): context for the report above it, not an earlier failure the tool held back.
 */
const POINTS_BACK = /\b(?:originally|previously|first) (?:used|defined|declared|seen|given)\b|\bprevious (?:definition|declaration|use)\b/i;

/** The severity a report states, so a `note:` that points back (`previous definition`) is not read as an earlier report. */
const SEVERITY_WORD = /\b(?:fatal|error|warning|note|info)\b|^[EWI](?=:)/i;

/** A report that only suspects (lacheck's `possible unwanted space`): the block's failure is a report that states one. */
const HEDGED = /\b(?:possible|possibly|probably|might|may be|consider|suggest(?:ion|ed)?)\b/i;

/** How far into an unindented line its location may start and still lead it (`Warning 15 in `, `ERROR: `). */
const LEAD_SPAN = 24;

/** The location a line opens with, the way a tool's report does (`luac: a.lua:222: …`, `Warning 15 in a.tex line 46:`). */
export function leadingLocation(text: string): Location | undefined {
  if (/^\s/.test(text)) return undefined;
  const first = located(text)[0];
  if (!first || first.at > LEAD_SPAN) return undefined;
  const { at: _a, to: _t, form: _f, ...loc } = first;
  return loc;
}

function leadingForm(text: string): number | undefined {
  if (/^\s/.test(text)) return undefined;
  const first = located(text)[0];
  return first && first.at <= LEAD_SPAN ? first.form : undefined;
}

/**
 * Locations inside the chosen evidence blocks, as Signals (`tool: 'evidence'`), so a failure no matcher
 * knows still yields a pin: a location on the block's header is the failure's own; one in a frame is a
 * frame; others are the block's detail. Mapping onto the checkout, ranking and verification follow as for
 * any matcher's signal.
 */
export function signalsFromBlocks(blocks: readonly Block[], lines: readonly LogLine[], category: Category): Signal[] {
  const byN = new Map(lines.map((l) => [l.n, l.text] as const));
  const out: Signal[] = [];
  // In log order: of two equally placed reports (LDC's `std/uri.d(229): Error:` and the template instance
  // it broke at line 321), a compiler's cascade prints its cause first.
  for (const b of [...blocks].sort((x, y) => x.start - y.start)) {
    const first = out.length;
    let kept = 0;
    const header = samePlaceReports(b, byN, (reportBelowExcerpt(b, byN) ?? byN.get(b.header) ?? '').trim()).slice(0, 500);
    const own = firstReportLine(b, byN);
    for (let n = b.start; n <= b.end && kept < MAX_PER_BLOCK; n++) {
      const text = byN.get(n);
      if (text === undefined) continue;
      const frame = isFrame(text);
      for (const { loc, demoted } of reportLocations(text)) {
        if (kept >= MAX_PER_BLOCK) break;
        kept++;
        out.push({
          kind: frame || b.kind === 'trace' ? 'frame' : b.kind === 'assertion' ? 'test' : 'diagnostic',
          path: loc.path,
          line: hunkChangeLine(n, loc.line, byN) - (frame ? 0 : saysPreviousLine(b, n, byN)),
          ...(loc.column ? { column: loc.column } : {}),
          message: (n === own && own !== b.header ? text.trim().slice(0, 500) : header) || text.trim().slice(0, 500),
          tool: 'evidence',
          ...(category !== 'unknown' ? { category } : {}),
          severity: 'error',
          weight: demoted ? WHOLE_FILE_WEIGHT : frame ? FRAME_WEIGHT : n === own ? HEADER_WEIGHT : BODY_WEIGHT,
          logLine: n,
        });
      }
    }
    // A header that only counts the errors (Rhino's `js: "a.js", line 1: Compilation produced 1 syntax
    // errors.`) places the compilation, not the fault: the report it counts, just above, is the place.
    if (out.length > first && ERROR_COUNT.test(header)) {
      const above = locationLineAbove(b, byN);
      if (above && !out.slice(first).some((o) => o.path === above.loc.path && o.line === above.loc.line)) {
        for (const o of out.slice(first)) o.weight = Math.min(o.weight, WHOLE_FILE_WEIGHT);
        out.push({ kind: 'diagnostic', path: above.loc.path, line: above.loc.line, ...(above.loc.column ? { column: above.loc.column } : {}),
          message: above.text.trim().slice(0, 500), tool: 'evidence', ...(category !== 'unknown' ? { category } : {}),
          severity: 'error', weight: HEADER_WEIGHT, logLine: above.n });
      }
    }
    if (out.length === first) {
      const above = locationLineAbove(b, byN);
      if (above) {
        out.push({ kind: 'diagnostic', path: above.loc.path, line: above.loc.line, ...(above.loc.column ? { column: above.loc.column } : {}),
          message: header || above.text.trim().slice(0, 500), tool: 'evidence', ...(category !== 'unknown' ? { category } : {}),
          severity: 'error', weight: HEADER_WEIGHT, logLine: above.n });
      }
    }
    if (out.length === first) {
      const below = placeLineBelow(b, byN);
      if (below) {
        out.push({ kind: 'diagnostic', path: below.loc.path, line: below.loc.line, ...(below.loc.column ? { column: below.loc.column } : {}),
          message: header || below.text.trim().slice(0, 500), tool: 'evidence', ...(category !== 'unknown' ? { category } : {}),
          severity: 'error', weight: HEADER_WEIGHT, logLine: below.n });
      }
    }
    // Frames only into installed packages (the tool's own stack under its `Error: illegal token '}', ';' expected
    // (line 18)`, protobufjs') place nothing of the project's: the report's fileless place still counts.
    if (out.slice(first).every((o) => o.kind === 'frame' && INSTALLED_CODE.test(o.path ?? ''))) {
      const bare = filelessLine(b, byN);
      if (bare) {
        out.push({ kind: 'diagnostic', path: bare.path, line: bare.line, ...(bare.column ? { column: bare.column } : {}), ...(bare.endLine ? { endLine: bare.endLine } : {}),
          message: bare.n < b.start ? bare.text.trim().slice(0, 500) : header || bare.text.trim().slice(0, 500), tool: 'evidence', ...(category !== 'unknown' ? { category } : {}),
          severity: 'error', weight: BODY_WEIGHT, logLine: bare.n });
      }
    }
    // only for a build or a check: a test's, a resolver's or the network's report naming a file (Maven's
    // `The project … (/x/pom.xml) has 1 error` above `Unknown host`) says where it looked, not what broke
    if (out.length === first && FILE_ONLY_CATEGORIES.has(category)) {
      const only = fileOnly(b, byN);
      if (only) {
        out.push({ kind: 'diagnostic', path: only.path, message: only.text.trim().slice(0, 500), tool: 'evidence', ...(category !== 'unknown' ? { category } : {}),
          severity: 'error', weight: BODY_WEIGHT, logLine: only.n });
      }
    }
    const earlier = earlierReport(b, lines, byN);
    if (earlier && !out.some((o) => o.logLine === earlier.n)) {
      out.push({ kind: 'diagnostic', path: earlier.loc.path, line: earlier.loc.line, ...(earlier.loc.column ? { column: earlier.loc.column } : {}),
        message: earlier.text.trim().slice(0, 500), tool: 'evidence', ...(category !== 'unknown' ? { category } : {}),
        severity: 'error', weight: HEADER_WEIGHT, logLine: earlier.n });
    }
    demoteWholeFileLines(out, first);
  }
  return out;
}

/**
 * A tool's own word that the fault is likely on the line before the one it reports (BibTeX's `(Error may have been on
 * previous line)` under ``I was expecting a `,' … ---line 26 of file xampl.bib``): a parser that only notices a missing
 * separator at the next line's first token says so, and the line before is the place.
 */
const PREVIOUS_LINE_HINT = /\b(?:may|might|could) have been on (?:the )?previous line\b|\b(?:probably|likely) on (?:the )?previous line\b/i;
/** How far below its report a tool prints that hint (BibTeX quotes two lines of input between). */
const PREVIOUS_LINE_SPAN = 4;
function saysPreviousLine(b: Block, n: number, byN: ReadonlyMap<number, string>): number {
  for (let k = n + 1; k <= Math.min(b.end, n + PREVIOUS_LINE_SPAN); k++) if (PREVIOUS_LINE_HINT.test(byN.get(k) ?? '')) return 1;
  return 0;
}

/** A line ending in its place (`Diff in /x/src/lib.rs:272:`): what follows it is the place's content. */
const PLACE_ENDS_LINE = /:(\d+):\s*$/;
/** A unified diff's context before its first change: three lines by default (diff -u, git, rustfmt). */
const HUNK_CONTEXT = 3;
/** A diff's changed line (`-old`, `+new`), not a file header (`--- a/x`, `+++ b/x`). */
const CHANGED = /^[-+](?![-+]{2}\s)/;

/**
 * A place heading a diff hunk (a formatter's check: rustfmt's `Diff in /x/src/lib.rs:272:`, then the
 * hunk): the place is the hunk's first line, which is context (` /// ``` `); the change the formatter
 * wants starts below the context lines, so that line is the place of what to fix.
 */
export function hunkChangeLine(n: number, line: number, byN: ReadonlyMap<number, string>): number {
  const m = PLACE_ENDS_LINE.exec(byN.get(n) ?? '');
  if (!m || Number(m[1]) !== line) return line;
  for (let k = n + 1, context = 0; k <= n + HUNK_CONTEXT + 1; k++, context++) {
    const text = byN.get(k);
    if (text === undefined) return line;
    if (CHANGED.test(text)) return replaces(k, byN) ? line + context : line;
    if (!text.startsWith(' ') || GUTTER.test(text)) return line;
  }
  return line;
}

/** A compiler's source excerpt (`   12 | int x`, `      |     ^`): its lines start with a space too, but are no diff context. */
const GUTTER = /^\s*\d*\s*\|/;
/** How far a formatter's replaced lines run: the removed, then the added. */
const HUNK_CHANGES = 12;

/** The changed lines from k on remove some and add others: a formatter's rewrite, not a stray `-` line. */
function replaces(k: number, byN: ReadonlyMap<number, string>): boolean {
  const signs = new Set<string>();
  for (let j = k; j < k + HUNK_CHANGES; j++) {
    const text = byN.get(j);
    if (text === undefined || !CHANGED.test(text)) break;
    signs.add(text[0]!);
  }
  return signs.size === 2;
}

/** A count of the errors a run produced (`Compilation produced 1 syntax errors.`, `found 3 errors`): a summary, not a report. */
const ERROR_COUNT = /\b(?:produced|found|generated|encountered|had)\s+\d+\s+(?:[a-z]+\s+)?errors?\b/i;

/** How far above a block its tool's first report on the same file is looked for: one compiler's run. */
const EARLIER_REPORT_SPAN = 400;

/**
 * The block's report opens with its place (`std/uri.d(321): Error: …`); the same tool printed a report of
 * the same form on the same file earlier in the step, outside every chosen block (`std/uri.d(229): Error:
 * …`). A compiler's cascade prints its cause first: that earlier report is a place as good as the block's
 * own (the ranking takes the earlier of two equals). Warnings and suspicions are not causes.
 */
function earlierReport(b: Block, lines: readonly LogLine[], byN: ReadonlyMap<number, string>): { n: number; text: string; loc: Location } | undefined {
  const header = byN.get(b.header) ?? '';
  const form = leadingForm(header);
  const own = form !== undefined ? leadingLocation(header) : undefined;
  if (!own || !SEVERE.test(header)) return undefined;
  const firstN = lines[0]?.n ?? b.start;
  for (let n = Math.max(firstN, b.start - EARLIER_REPORT_SPAN); n < b.start; n++) {
    const text = byN.get(n);
    if (text === undefined || isFrame(text) || HEDGED.test(text) || /\bwarning\b/i.test(text) || !SEVERE.test(text)) continue;
    if (leadingForm(text) !== form) continue;
    const loc = leadingLocation(text);
    if (loc && loc.path === own.path) return { n, text, loc };
  }
  return undefined;
}

/** A report that says it is an error: the kind a compiler stops on. */
const SEVERE = /\b(?:error|fatal)\b/i;

/**
 * A second line of the same file in a report: luac's `a.lua:222: 'end' expected (to close 'function' at line 75)`,
 * CHICKEN's `(line 1597) unterminated list, starting in line 1291`.
 */
const INNER_LINE = /\b(?:at|on|from|starting in) line (\d+)\b/g;
/** A report placed at the end of the input: the tool read on to it looking for what was missing. */
const AT_END = /<eof>|\bend of (?:file|input)\b|\bunexpected EOF\b|\bEOF\b|\bunterminated (?:list|block|comment)\b/i;

/**
 * A line's locations, with the other lines of the same file it names (`at line 75`). When the report is
 * placed at the end of the file, that place says only that the tool ran out of input: the other line
 * (the construct it could not close) is the failure's, and the end's place is demoted.
 */
function reportLocations(text: string): { loc: Location; demoted?: boolean }[] {
  const locs = locationsIn(text);
  if (!locs.length || text.length > 2000) return locs.map((loc) => ({ loc }));
  const inner = [...text.matchAll(INNER_LINE)].map((m) => Number(m[1])).filter((l) => l > 0 && !locs.some((x) => x.line === l));
  if (!inner.length || !AT_END.test(text)) return locs.map((loc) => ({ loc }));
  return [...inner.map((line) => ({ loc: { path: locs[0]!.path, line } })), ...locs.map((loc) => ({ loc, demoted: true }))];
}

/** Lines looked at above a block for its location: a blank, a source excerpt and its marker (gfortran, Crystal). */
const LOOKBACK = 6;
/** A line that is a location and nothing else: `foo.f90:17:8:`, Crystal's `In src/a.cr:40:23`. */
const LOCATION_ONLY = /^\s*(?:In |in |at |--> )?(\S+)\s*$/;

/** A caret alone on its line, under the source line it points into. */
const CARET_LINE = /^\s*\^[\^~]*\s*$/;

/**
 * A block headed by a source line quoted over a caret, its report below them (rpcgen's `};`, `^`, then
 * `rpcsvc/rquota.x, line 31: expected ';'`; tools that print the excerpt first, as Python prints its
 * `SyntaxError:` under the caret): the quoted code is no message, the located report under it is.
 */
function reportBelowExcerpt(b: Block, byN: ReadonlyMap<number, string>): string | undefined {
  if (!CARET_LINE.test(byN.get(b.header + 1) ?? '')) return undefined;
  for (let n = b.header + 2; n <= b.end; n++) {
    const text = byN.get(n);
    if (text !== undefined && leadingLocation(text)) return text;
  }
  return undefined;
}

/**
 * A parser that reports one place twice, a generic line then what it wanted (Kamailio's `parse error in config
 * file /x/k.cfg, line 628, column 3-6: syntax error` then `…, line 628, column 3-6: bad command: missing ';'?`, a
 * Bison grammar's `syntax error` before its own detail): one report; the later lines' words join the header's, so
 * what the detail names (the missing separator) is read whichever line is the block's own.
 */
function samePlaceReports(b: Block, byN: ReadonlyMap<number, string>, header: string): string {
  const own = new Set(locationsIn(header).map((l) => `${l.path}:${l.line}`));
  if (!own.size) return header;
  let message = header;
  for (let n = b.header + 1; n <= b.end && message.length < 500; n++) {
    const text = byN.get(n)?.trim();
    if (!text || text === header) continue;
    const at = locationsIn(text).map((l) => `${l.path}:${l.line}`);
    if (!at.length || !at.every((k) => own.has(k))) continue;
    // only what the line adds to the header (a long path and the same lead would crowd out its detail)
    let common = 0;
    while (common < text.length && text[common] === header[common]) common++;
    message += ` ${text.slice(common)}`;
  }
  return message;
}

/**
 * Some tools print the location alone on its line, then an excerpt, and only then the verdict (`Error: …`),
 * so the block the finder chose starts below it; a block that names no place takes such a line from just above.
 */
function locationLineAbove(b: Block, byN: ReadonlyMap<number, string>): { n: number; text: string; loc: Location } | undefined {
  for (let n = b.start - 1; n >= b.start - LOOKBACK && n >= 1; n--) {
    const text = byN.get(n);
    if (text === undefined) return undefined;
    const m = LOCATION_ONLY.exec(text);
    if (!m) {
      // A tool's report just above the block the finder chose (Docutils' `README.rst:5: (ERROR/3) …` above
      // its `Exiting due to level-3 (ERROR) system message.`): the block restates it.
      const report = leadingForm(text) !== undefined ? locationsIn(text) : [];
      // a numbered source excerpt's line (Icinga's `a.conf(27):   /* … */` under `a.conf(26):`) quotes the
      // code around a report further up, which has its own block: it is no report to restate
      if (report.length && excerptLine(report[0]!, byN.get(n - 1))) return undefined;
      if (report.length) return outermostHeading(n, byN) ?? { n, text, loc: report[0]! };
      continue;
    }
    const locs = locationsIn(m[1]!.replace(/:$/, ''));
    // Node's throw site above an uncaught error (`/x/node_modules/nearley/lib/nearley.js:346` over `throw err;`) is
    // the tool's code, not what it reports on
    if (locs.length === 1 && INSTALLED_CODE.test(locs[0]!.path)) continue;
    if (locs.length === 1) return { n, text, loc: locs[0]! };
  }
  return undefined;
}

/** A place heading its report with nothing after it but a colon, its line in brackets (the flat assembler's `src/a.asm [21]:`). */
const PLACE_HEADING = new RegExp(String.raw`^\s*${ANY_PATH} \[\d+\](?: [\w.@$?-]+ \[\d+\])*:\s*$`);

/**
 * A chain of place headings over one report, printed outermost first: the line being assembled (`src/a.asm [21]:`
 * and its source), then the macro's line it expanded into (`src/ccall.inc [17] ccall [14]:`). The macro is shared
 * code that worked before; the fault is in the code that called it, so the chain's outermost place is the report's.
 */
function outermostHeading(n: number, byN: ReadonlyMap<number, string>): { n: number; text: string; loc: Location } | undefined {
  if (!PLACE_HEADING.test(byN.get(n) ?? '')) return undefined;
  let top = n;
  for (let k = n - 1; k >= n - LOOKBACK && k >= 1; k--) {
    const text = byN.get(k);
    if (text === undefined || text.trim() === '') break;
    if (PLACE_HEADING.test(text)) top = k;
  }
  const text = byN.get(top)!;
  const loc = locationsIn(text)[0];
  return loc ? { n: top, text, loc } : undefined;
}

/** Whether a place opening a line follows the line above's place in the same file by one line: a quoted source excerpt. */
function excerptLine(loc: Location, above: string | undefined): boolean {
  const prev = above !== undefined && leadingForm(above) !== undefined ? locationsIn(above)[0] : undefined;
  return prev !== undefined && prev.path === loc.path && prev.line === loc.line - 1;
}

/** How far below a block its report's place may follow: VCC's message, `(program line 208), at`, then the place. */
const PLACE_BELOW = 3;
/** What a place in parentheses may carry besides itself (` Pos 5`). */
const PLACE_SLACK = 12;

/**
 * Some tools print the message first and its place after it, alone in parentheses (Varnish's VCC: `Expected ';'
 * got '}'`, `(program line 208), at`, `('/x/default.vcl' Line 28 Pos 5)`): a block that names no place takes
 * such a line from just below it. A place below that is not in parentheses opens the next report.
 */
function placeLineBelow(b: Block, byN: ReadonlyMap<number, string>): { n: number; text: string; loc: Location } | undefined {
  for (let n = b.end + 1; n <= b.end + PLACE_BELOW; n++) {
    const text = byN.get(n);
    if (text === undefined || text.trim() === '') return undefined;
    const inner = /^\s*\((.*)\)\s*$/.exec(text)?.[1];
    if (inner === undefined) continue;
    const found = located(inner);
    if (found.length !== 1) continue;
    const { at, to, form: _f, ...loc } = found[0]!;
    if (inner.trim().length - (to - at) <= PLACE_SLACK) return { n, text, loc };
  }
  return undefined;
}

/**
 * A report that names the line but not the file: HTML Tidy's `line 54 column 18 - Error: …`, jq's `parse
 * error: … at line 10, column 10`, Python's json `Expecting …: line 14 column 5 (char 345)`, SQLite's `Parse
 * error near line 4:`, Python's configparser's `[line 280]: 'x'` under `Source contains parsing errors: 'a.conf'`, Vim's padded
 * `line   38:` under `Error detected while processing … script /x/plugin/a.vim:`, HTMLHint's `^ Tag must be paired, … on line 39. (tag-pair)` (a sentence's full stop), write-good's `"the" is repeated on line 47 at column 59`.
 * TeX's engines (pdfTeX, XeTeX, LuaTeX, METAFONT, MetaPost) write the line they stopped on as `l.174` leading the
 * context line that quotes the input read so far (`l.174          \end{itemize}`), the file only in their `(./a.tex`
 * trail or the command.
 */
const FILELESS = /(?:^\s*\[?|[:,]\s|\(|\b(?:at|on|in|near) )line:? +(\d+)(?:,?\s*(?:at )?col(?:umn)?[.:]?\s*(\d+))?(?:\s*[-:,()\]]|\.(?=\s|$)|$)|\b(?:in|at) lines (\d+)\s?(?:\.\.|-)\s?(\d+)\b|^l\.(\d+)(?= |$)/i;
/**
 * A report under a heading that names the file, its line leading it: a table's row (PHP_CodeSniffer's full
 * report: `FILE: src/a.php`, then ` 34 | ERROR | Operator ! prohibited …`, the line in the first column, the
 * severity in the second), or a line marked `#N` (CoffeeLint's `  ✗ src/a.coffee` over `     ✗ #29-29: …`).
 */
const TABLE_ROW = /^\s*(\d+)\s+\|\s*(?:ERROR|WARNING|error|warning)\s*\|/;
const MARKED_ROW = /^\s*(?:[✗✘×⚡!]\s+)?#(\d+)(?:-\d+)?: \S/;
/**
 * A linter's stylish row under the file's heading: `  12:5  error  …` (ESLint's stylish, yamllint), and unified's
 * vfile-reporter (remark-lint, textlint's kin), flush left with the span's end: `48:81-48:106 warning …`.
 */
export const STYLISH_ROW = /^\s*(\d+):(\d+)(?:-\d+:\d+)?\s+(?:[✓✔]\s*)?(?:error|warning)\s+\S/;
/** A row whose line and position are labelled columns (SQLFluff's `L:  36 | P:   1 | L010 | Keywords must be …` under `== [a.sql] FAIL`). */
const LABELLED_ROW = /^\s*L(?:ine)?:\s*(\d+)\s*\|\s*(?:P(?:os(?:ition)?)?|C(?:ol(?:umn)?)?):\s*(\d+)\s*\|/;
/** A report row of a table under its file's heading (the forms above), which names no file itself. */
export const isReportRow = (text: string): boolean => TABLE_ROW.test(text) || MARKED_ROW.test(text) || STYLISH_ROW.test(text) || LABELLED_ROW.test(text);
/** A parser's exception ending in its place and naming no file (js-yaml's `YAMLException: unidentified alias "x" (32:13)`). */
const EXCEPTION_PLACE = /\b[A-Z]\w*(?:Exception|Error)\b[^()\n]*\((\d+):(\d+)\)\s*$/;
/**
 * A parser's report naming a fault and ending in `at L:C`, naming no file (json5's `JSON5: invalid character '"' at
 * 12:3`): the fault word is asked for so that a clock's `at 10:15` is not read as a place.
 */
const FAULT_AT_PLACE = /\b(?:invalid|unexpected|unterminated|expected)\b[^\n]*\bat (\d+):(\d+)\s*$/i;
/** A report's header the block finder left just above the block (CLISP's `WARNING: in F in lines 20..35 : …`). */
const HEADER_ABOVE = 2;
/** How far above the block the file such a report is about may be named: its own heading, or the step's command. */
const FILE_LOOKBACK = 40;
const PATH_ONLY = new RegExp(PATH, 'g');
const ANY_PATH_ONLY = new RegExp(ANY_PATH, 'g');
/** How far below a fileless report its file may be named: the tool's next line, the command it says failed. */
const FILE_LOOKAHEAD = 3;
/**
 * A path into installed packages: Node prints where an uncaught error was thrown above it (`/x/node_modules/
 * protobufjs-cli/pbjs.js:419`, its source line and a caret), which is the tool's code, not the file it reports on.
 */
const INSTALLED_CODE = /(?:^|\/)(?:node_modules|site-packages|dist-packages)\//;
/** Just before a path, the flag that makes it a command's output. */
const OUTPUT_FLAG = /(?:\s-o|\s--?output(?:-file)?(?:=|\s)|>)\s*['"]?$/;

/**
 * A report without its file takes the one file named just above it: the line a tool prints before its
 * reports (`docs/a.html:`), or the step's command (`Run tidy -q -e docs/a.html`). A line naming several
 * files says nothing of which one.
 */
function filelessLine(b: Block, byN: ReadonlyMap<number, string>): (Location & { n: number; text: string; endLine?: number }) | undefined {
  for (let n = Math.max(1, b.start - HEADER_ABOVE); n <= b.end; n++) {
    const text = byN.get(n);
    const row = text !== undefined ? (TABLE_ROW.exec(text) ?? MARKED_ROW.exec(text) ?? STYLISH_ROW.exec(text) ?? LABELLED_ROW.exec(text)) : null;
    const thrown = text !== undefined ? (EXCEPTION_PLACE.exec(text) ?? FAULT_AT_PLACE.exec(text)) : null;
    const m = text !== undefined ? (FILELESS.exec(text) ?? (row ? ([row[0], row[1], row[2]] as unknown as RegExpExecArray) : thrown)) : null;
    if (!m || text === undefined) continue;
    // a span (`in lines 20..35`): the form the report is about, its first line and its last
    if (m[3]) {
      m[1] = m[3];
      m[2] = undefined as unknown as string;
    }
    // TeX's context line (`l.174 …`): its line alone
    if (m[5]) m[1] = m[5];
    const endLine = m[4] && Number(m[4]) > Number(m[1]) ? Number(m[4]) : undefined;
    // the block's own lines above the report first (SBCL's `end of file on #<… for "file /x/list.lisp">` then
    // `(in form starting at line: 45, column: 0, …)`), then the lines above the block, then the block's
    // lines below it (CHICKEN's `Error: shell command terminated …: '/usr/bin/chicken' 'srfi-1.scm' …`)
    const order = [...Array.from({ length: Math.min(n - 1, n - b.start + FILE_LOOKBACK) }, (_, i) => n - 1 - i), ...Array.from({ length: b.end - n + FILE_LOOKAHEAD }, (_, i) => n + 1 + i)];
    for (const k of order) {
      const above = byN.get(k);
      if (above === undefined || above.length > 2000) continue;
      // a command's output file (`-o x.o`, `-output-file 'x.c'`, `> x.log`) is what it wrote, not what it read
      // the step's command names the file it runs the tool on, whatever its extension (`nearleyc builtin/number.ne`)
      const paths = new Set([...above.matchAll(above.startsWith(STEP_RUN) ? ANY_PATH_ONLY : PATH_ONLY)].filter((p) => !OUTPUT_FLAG.test(above.slice(Math.max(0, (p.index ?? 0) - 20), p.index))).map((p) => p[1]!).filter((p) => !/^https?:|\/\//.test(p) && !INSTALLED_CODE.test(p)));
      if (paths.size === 0) continue;
      if (paths.size > 1) return undefined;
      const col = m[2] ? Number(m[2]) : 0;
      // placed at the end of the input, the report's other line is the construct left open
      const inner = AT_END.test(text) ? [...text.matchAll(INNER_LINE)].map((x) => Number(x[1])).find((l) => l > 0 && l !== Number(m[1])) : undefined;
      return { path: [...paths][0]!, line: inner ?? Number(m[1]), ...(col > 0 && !inner ? { column: col } : {}), ...(endLine && !inner ? { endLine } : {}), n, text };
    }
    return undefined;
  }
  return undefined;
}

const FILE_ONLY_CATEGORIES: ReadonlySet<Category> = new Set(['compile', 'lint', 'unknown']);

/**
 * A report that names the one file it gave up on and no line at all (ECL's `Unexpected end of file on
 * #<input stream #P"/x/vector.lisp">`): a file without a line, which only the PR's change in that file can
 * place (from-signals); without the diff it is no location.
 */
function fileOnly(b: Block, byN: ReadonlyMap<number, string>): { n: number; text: string; path: string } | undefined {
  let severe: { n: number; text: string } | undefined;
  for (let n = b.start; n <= b.end; n++) {
    const text = byN.get(n);
    if (text === undefined || text.length > 2000 || !(SEVERE.test(text) || AT_END.test(text) || GAVE_UP.test(text))) continue;
    const paths = readPaths(text);
    if (paths.size === 1) return { n, text, path: [...paths][0]! };
    if (paths.size > 1) return undefined;
    severe ??= { n, text };
  }
  // A report naming neither file nor line (R's `Error: unexpected symbol in:` over the code it quotes), in a
  // step whose command names one file (`Run Rscript demo/recursion.R`): the file the step ran it on.
  if (!severe) return undefined;
  for (let n = b.start - 1; n >= Math.max(1, b.start - FILE_LOOKBACK); n--) {
    const text = byN.get(n);
    if (text === undefined || !text.startsWith(STEP_RUN) || text.length > 2000) continue;
    const paths = readPaths(text);
    return paths.size === 1 ? { n: severe.n, text: severe.text, path: [...paths][0]! } : undefined;
  }
  return undefined;
}

/** A loader's report that it could not read a file, in words SEVERE misses (GJS's `Gjs-CRITICAL **: … Failed to parse module 'file:///x/index.js': SyntaxError: …`). */
const GAVE_UP = /\b[A-Z]\w*Error\b|\bCRITICAL\b/;

/** The runner's header of the step a block sits in: its command. */
const STEP_RUN = '##[group]Run ';

/** The files a line names, but not a command's output file nor a URL. */
function readPaths(raw: string): Set<string> {
  // a `file://` URL names a local file (GJS's `module 'file:///x/index.js'`), unlike a web address
  const text = raw.replace(/\bfile:\/\/(?=\/)/g, '');
  return new Set([...text.matchAll(PATH_ONLY)].filter((p) => !OUTPUT_FLAG.test(text.slice(Math.max(0, (p.index ?? 0) - 20), p.index))).map((p) => p[1]!).filter((p) => !/^https?:|\/\//.test(p)));
}

/** What a `line 1` with no column weighs once the block names a real line of the same file. */
const WHOLE_FILE_WEIGHT = 0.2;

/**
 * `File "a.ml", line 1:` (OCaml's interface mismatch), like `a.ml:1:` from others, speaks of the file as a
 * whole; when the block also names a later line of that file (OCaml's `Actual declaration` at line 20),
 * that line is the failure's place and line 1 only its heading.
 */
function demoteWholeFileLines(out: Signal[], from: number): void {
  for (let i = from; i < out.length; i++) {
    const s = out[i]!;
    if (s.line !== 1 || s.column !== undefined) continue;
    if (out.slice(from).some((o) => o !== s && o.path === s.path && (o.line ?? 0) > 1)) s.weight = WHOLE_FILE_WEIGHT;
  }
}
