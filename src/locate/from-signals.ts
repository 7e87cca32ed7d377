import type { Signal } from '../types.js';
import type { Candidate } from './candidate.js';
import { installedCopyOf, isExternalPath, mapLogPath, stripCiPrefix, type Workspace } from '../repo/workspace.js';
import { isTestFile } from '../repo/related-files.js';
import { changedBy, isChangedLine, type Hunk, type PrDiff } from '../repo/diff.js';
import { quoteLeftOpenAbove } from './quote-left-open.js';
import { changeInBlockBelow } from './change-in-block.js';

/**
 * An exception raised in the code under test, in a stack the failing test called: the code's innermost
 * frame outranks the test's own line (the test only says which call failed; BugSwarm's real fixes change
 * the raising code, not the test). Enough to lift a frame (0.6 + 0.25) over a failing test whose line
 * several routes reached (0.9, merged with its own frame and a second test: up to ~1.2).
 */
const CALLED_BY_TEST_BONUS = 0.4;
/**
 * How far a failing test's report may sit from its stack: above it, a jest `●` title with its message,
 * diff and code frame (or Maven's `<<< ERROR!`); below it, pytest's `E` line or unittest's exception.
 */
const FAILURE_HEADER_SPAN = 60;
const FAILURE_TRAILER_SPAN = 8;
/** The weight a frame matcher gives a project frame (frames-python.ts): the project's installed copy's frames get it back. */
const INSTALLED_COPY_WEIGHT = 0.6;

/**
 * How far past a file's end a tool may place a report and still mean its last line: a parser that met the
 * end of input counts the line it would have read next. Further off, the line is another version's.
 */
const PAST_END_SLACK = 1;

/** The note that marks such a frame (blame-change reads it). */
export const RAISED_UNDER_TEST = 'raised in the code the failing test called';

/** A connection the server refused or never answered (Python's urllib/requests/aiohttp, Node's ECONNREFUSED). */
const UNREACHABLE = /\bConnection refused\b|\bECONNREFUSED\b|\bConnectionRefusedError\b|Failed to establish a new connection|Cannot connect to host/;

/** Runtimes that print the innermost frame last ("most recent call last"). */
const INNERMOST_LAST = new Set(['python-frame', 'python', 'pytest', 'unittest']);

/**
 * Turns the log's located signals into candidate pins: each diagnostic, failing test and in-repo stack
 * frame whose path maps onto the checkout (or, with no checkout, onto the path as the log names it).
 * Frames are ranked by depth: the innermost frame that is our code is where the error was raised.
 */
export function candidatesFromSignals(signals: readonly Signal[], ws: Workspace | undefined, diff: PrDiff | undefined): Candidate[] {
  const out: Candidate[] = [];
  const { depth: frameDepth, underTest, outer } = stackDepths(signals, ws);
  const intoReport = framesIntoReport(signals);
  const checking = assertionHelpers(signals);
  for (const s of signals) {
    if (!s.path || s.kind === 'identifier') continue;
    // A library frame is skipped, unless it is the project's own installed copy (tox, an egg).
    const weight = s.kind === 'frame' && s.weight <= 0.05 && ws && s.path && installedCopyOf(ws, s.path) ? INSTALLED_COPY_WEIGHT : s.weight;
    if (s.kind === 'frame' && weight <= 0.05) continue;
    // The project's own assertion class checked a value; like JUnit's frames, it is not where it was made.
    if (s.kind === 'frame' && isAssertionApiFrame(s)) continue;
    // With a checkout, mapLogPath decides what is ours; without one, the path's shape is all we have.
    if (!ws && isExternalPath(stripCiPrefix(s.path))) continue;
    let file: string;
    let mapped: Candidate['mapped'] = 'none';
    let ambiguous = false;
    if (ws) {
      const m = mapLogPath(ws, s.path) ?? (s.tool === 'evidence' ? fileNamedByStem(ws, s.path) : null);
      if (!m) continue;
      file = m.file;
      mapped = m.how;
      ambiguous = m.alternatives.length > 0;
    } else {
      file = stripCiPrefix(s.path);
      if (file.startsWith('/')) continue; // an absolute path of another machine says nothing without a repo
    }
    let line = s.line;
    const notes: string[] = [];
    let mappedHow: Candidate['mapped'] = mapped;
    if (line === undefined && ws) {
      // A file without a line (prettier, a require stack): the symbol's line, else the PR's change there.
      const found = s.symbol ? findToken(ws, file, s.symbol) : undefined;
      const changed = s.tool === 'evidence' ? changeNamedBy(diff, file, s.message) : diff?.byFile.get(file)?.hunks.find((h) => h.added.length)?.added[0]?.n;
      line = found ?? changed;
      if (found) notes.push(`\`${s.symbol}\` found at line ${found}`);
      else if (changed) notes.push(`first line ${changedBy(diff)} changed in this file`);
      mappedHow = found ? 'search' : changed ? 'diff' : mapped;
    }
    if (line !== undefined && s.tool === 'evidence' && s.endLine !== undefined && s.endLine > line) {
      // A report that names only a span (CLISP's `in lines 20..35`, the whole form): the PR's change inside
      // it that shares a word with the report is the place; with none, no line of the span is (no location
      // rather than the form's first line).
      const within = changeInSpan(diff, file, line, s.endLine, s.message);
      if (within === undefined) continue;
      notes.push(`line ${within} is the change inside lines ${line}..${s.endLine} that the report names`);
      line = within;
    }
    // a documentation tool's report on a doc comment's first line, whoever read it (the gcc matcher reads Doxygen's header)
    const documented = line !== undefined && ws && s.kind === 'diagnostic' && s.endLine === undefined ? documentedBelow(diff, ws, file, line, s.message) : undefined;
    if (documented !== undefined) {
      notes.push(`line ${documented}, changed in what the doc comment at line ${line} documents, has what the report names`);
      line = documented;
    } else if (line !== undefined && ws && s.tool === 'evidence' && s.endLine === undefined) {
      const above = namedAbove(diff, ws, file, line, s.message);
      const quoteOpen = above === undefined ? quoteLeftOpenAbove(diff, file, line, s.message) : undefined;
      const unclosed = above === undefined && quoteOpen === undefined ? (separatorMissingAbove(diff, ws, file, line, s.message) ?? separatorLostBeforeWord(diff, ws, file, line, s.column, s.message) ?? closerDroppedBelow(diff, file, line, s.message) ?? openedBeforeEnd(diff, ws, file, line) ?? openerDroppedAbove(diff, file, line, s.message) ?? closerDroppedAbove(diff, file, line, s.message) ?? changedJustAbove(diff, ws, file, line, s.message)) : undefined;
      const readPast = above === undefined && quoteOpen === undefined && unclosed === undefined ? undeclaredNameAbove(ws, file, line, s.message) : undefined;
      const inBlock = above === undefined && quoteOpen === undefined && unclosed === undefined && readPast === undefined
        ? changeInBlockNamed(diff, ws, file, line, s.message)
        : undefined;
      if (quoteOpen !== undefined) {
        notes.push(`line ${quoteOpen}, changed above the reported line ${line}, left a quote unpaired: every later quote pairs the wrong way up to where the reader gave up`);
        line = quoteOpen;
      } else if (readPast !== undefined) {
        notes.push(`line ${readPast}, just above the reported line ${line}, has the undeclared name the report quotes`);
        line = readPast;
      } else if (above !== undefined) {
        notes.push(`line ${above}, changed just above the reported line ${line}, has what the report names`);
        line = above;
      } else if (unclosed !== undefined) {
        notes.push(`line ${unclosed}, changed just above the reported line ${line}, lacks the separator the report misses`);
        line = unclosed;
      } else if (inBlock !== undefined) {
        notes.push(`line ${inBlock} is the change inside the block that the reported line ${line} heads`);
        line = inBlock;
      }
    } else if (line !== undefined && ws && s.kind === 'diagnostic' && BLOCK_FAULT.test(s.message)) {
      // A matcher's report that a whole block failed to parse (sass-lint's stylish `Please check validity of
      // the block starting from line #1`) names the block's head, like the generic reader's reports above.
      const inBlock = changeInBlockNamed(diff, ws, file, line, s.message);
      if (inBlock !== undefined) {
        notes.push(`line ${inBlock} is the change inside the block that the reported line ${line} heads`);
        line = inBlock;
      }
    }
    if (line !== undefined && ws && s.kind === 'diagnostic' && PY_SYNTAX.test(s.message) && /\.pyw?$/.test(file)) {
      const opener = unclosedOpenerAbove(ws, file, line);
      if (opener !== undefined) {
        notes.push(`line ${opener} opens a bracket still open at the reported line ${line}, which begins a statement: Python reports an unclosed bracket where the next statement starts`);
        line = opener;
      }
    }
    if (line !== undefined && ws && s.tool === 'evidence' && s.kind === 'diagnostic') {
      const inFile = frontMatterLine(ws, file, line, s.message);
      if (inFile !== undefined) {
        notes.push(`the YAML's line ${line} is the file's line ${inFile}, under the front matter's opening \`---\``);
        line = inFile;
      }
    }
    if (line === undefined) continue;
    // A line one past the end (msgfmt's `end-of-line within string` on a file's last line): the last line.
    const fileLines = ws && line > 1 ? ws.lines(file) : undefined;
    // A file ending in a newline splits into one empty string after its last line.
    const last = fileLines ? (fileLines[fileLines.length - 1] === '' ? fileLines.length - 1 : fileLines.length) : 0;
    if (last > 0 && line > last && line - last <= PAST_END_SLACK) {
      notes.push(`line ${line} is past the end of the file: its last line`);
      line = last;
    }
    let score = weight;
    let depth: number | undefined;
    // A frame says where, not why: borrow the error it belongs to (the test or exception above it).
    const why = s.kind === 'frame' ? headlineFor(s, signals) : undefined;
    if (s.kind === 'frame') {
      depth = frameDepth.get(s) ?? 0;
      score = weight * Math.pow(0.8, depth);
      // A client that could not reach its server raised where it connected: the server is down (it failed
      // to start, or another test's failure took it down), so that frame is not where the code is wrong.
      const unreachable = why !== undefined && UNREACHABLE.test(why);
      if (unreachable) notes.push('raised because a server the test called could not be reached');
      // Code that called the test framework's assert is checking a result, not making it: like the test's own line.
      if (checking.has(s)) notes.push(ASSERTION_HELPER);
      // Raised in the code under test, not in the test: the frame is the pin (unless it only called into
      // the file the report itself names, which is then where it was raised).
      const checked = unreachable || checking.has(s);
      if (depth === 0 && !isTestFile(file) && !intoReport.has(s) && !checked) score += 0.25;
      if (depth === 0 && !isTestFile(file) && underTest.has(s) && !checked) {
        score += CALLED_BY_TEST_BONUS;
        notes.push(RAISED_UNDER_TEST);
      }
      notes.push(depth === 0 ? 'innermost frame in the repository' : `frame ${depth + 1} of the stack in the repository`);
    }
    if (s.severity === 'warning') score *= 0.4;
    // The style reports on the line the parser stopped at (E128, E122) are knock-ons of the syntax error.
    if (notes.some((n) => n.includes('Python reports an unclosed bracket'))) score += SYNTAX_OPENER_LIFT;
    out.push({
      file,
      line,
      column: s.column,
      endLine: s.endLine,
      cause: s.kind === 'diagnostic' ? 'diagnostic' : s.kind === 'test' ? 'test' : 'frame',
      score,
      message: why ?? s.message,
      symbol: s.symbol,
      signals: [s],
      notes,
      mapped: mappedHow,
      ambiguous,
      ...(depth !== undefined ? { depth } : {}),
    });
  }
  if (ws) passOverRelays(out, outer, ws);
  return out;
}

/** The PR's change inside the block the reported line heads, preferring the changed line holding a word the report names. */
function changeInBlockNamed(diff: PrDiff | undefined, ws: Workspace, file: string, line: number, message: string): number | undefined {
  const words = reportWords(message);
  return changeInBlockBelow(diff, ws.lines(file), file, line, (t) => [...t.matchAll(SPAN_WORD)].some((m) => words.has(m[0].toLowerCase())));
}

/**
 * A report that names the unit a file holds rather than the file (appstreamcli's `E: org.example.app:30:`
 * for `data/org.example.app.metainfo.xml`): the one checkout file whose name is that name plus extensions.
 */
function fileNamedByStem(ws: Workspace, name: string): { file: string; how: 'unique-name'; alternatives: string[] } | null {
  if (name.includes('/') || name.length < 3) return null;
  const found = ws.files.filter((f) => f.slice(f.lastIndexOf('/') + 1).startsWith(`${name}.`));
  return found.length === 1 ? { file: found[0]!, how: 'unique-name', alternatives: [] } : null;
}

/** Words of a report worth matching against a change: identifiers, not the report's own vocabulary. */
const SPAN_WORD = /[A-Za-z_][\w-]{2,}/g;
const SPAN_STOP = new Set(['the', 'and', 'for', 'not', 'nor', 'was', 'were', 'lines', 'line', 'warning', 'error', 'declared', 'bound', 'neither', 'defined', 'undefined']);

/**
 * The first line the PR added or changed in lines start..end of a file whose text, or the text it replaced,
 * shares a word with the report (case aside: CLISP prints `SUBSEQS` for the source's `subseqs`).
 */
function changeInSpan(diff: PrDiff | undefined, file: string, start: number, end: number, message: string): number | undefined {
  const words = new Set([...message.matchAll(SPAN_WORD)].map((m) => m[0].toLowerCase()).filter((w) => !SPAN_STOP.has(w)));
  if (!words.size) return undefined;
  const shares = (text: string | undefined) => !!text && [...text.matchAll(SPAN_WORD)].some((m) => words.has(m[0].toLowerCase()));
  for (const h of diff?.byFile.get(file)?.hunks ?? []) {
    for (const [i, a] of h.added.entries()) {
      if (a.n < start || a.n > end) continue;
      if (shares(a.text) || shares(h.removed[i])) return a.n;
    }
  }
  return undefined;
}

/** How far above its reported line a parser may have read past the mistake (flex's rule reported on the next line). */
const READ_PAST = 2;

/** The words a report names that could be in code: not stop words, not the report's own vocabulary. */
function reportWords(message: string): Set<string> {
  return new Set([...message.matchAll(SPAN_WORD)].map((m) => m[0].toLowerCase()).filter((w) => !SPAN_STOP.has(w) && !REPORT_WORDS.has(w)));
}

/**
 * A parser reports where it noticed, often the line after the mistake (flex's `scan.l:61: undefined
 * definition {DIGIT}` for the rule on line 60). When the reported line is not one the PR changed and has
 * none of the words the report names, while a changed line just above it has one, that line is the place.
 */
function namedAbove(diff: PrDiff | undefined, ws: Workspace, file: string, line: number, message: string): number | undefined {
  const hunks = diff?.byFile.get(file)?.hunks;
  // the reported line may be one the PR changed too (lighttpd's `Duplicate config variable …: index-file.names`
  // reported at the next statement, both added): it still holds none of the words
  if (!hunks) return undefined;
  const words = reportWords(message);
  if (!words.size) return undefined;
  const has = (text: string | undefined) => !!text && [...text.matchAll(SPAN_WORD)].some((m) => words.has(m[0].toLowerCase()));
  if (has(ws.lines(file)?.[line - 1])) return undefined;
  for (let n = line - 1; n >= line - READ_PAST && n >= 1; n--) {
    const added = hunks.flatMap((h) => h.added).find((a) => a.n === n);
    if (added && has(added.text)) return n;
  }
  return undefined;
}
/**
 * The name an undeclared-name report quotes (Spin's `undeclared variable: haschild`, `'x' undeclared`, `undefined
 * name 'x'`), or the quoted token literal a grammar uses undeclared, printed in quotes of its own (Happy's `unknown
 * identifier ''%''`: the literal `'%'`).
 */
const UNDECLARED_NAME = /\b(?:undeclared|undefined|unknown) (?:variable|identifier|name|symbol|token)s?:?\s+(?:['"`‘](['"][^'"\s]{1,8}['"])['"`’]|['"`‘]?([A-Za-z_]\w*))|['"`‘]([A-Za-z_]\w*)['"`’] (?:undeclared|is not defined|not defined)\b/;

/**
 * A parser that reads a token ahead reports an undeclared name on the line after it (Spin's `a.pml:36, Error:
 * undeclared variable: haschild saw '->' near 'child'` for `:: haschild ->` on line 35). When the reported line
 * does not hold the name the report quotes and a line just above it does, that line is the place, changed or not.
 */
function undeclaredNameAbove(ws: Workspace, file: string, line: number, message: string): number | undefined {
  const m = UNDECLARED_NAME.exec(message);
  const name = m?.[1] ?? m?.[2] ?? m?.[3];
  const text = ws.lines(file);
  if (!name || !text) return undefined;
  // a whole word, or the literal as written, quotes and all
  const spelt = new RegExp(/^\w/.test(name) ? String.raw`(?<![\w$])${name}(?![\w$])` : name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const holds = (t: string | undefined) => !!t && spelt.test(t);
  if (holds(text[line - 1])) return undefined;
  for (let n = line - 1; n >= line - READ_PAST && n >= 1; n--) if (holds(text[n - 1])) return n;
  return undefined;
}

/**
 * A report placed past the file's last line: the parser ran out of input, so something the PR opened was never
 * closed (terser's `Parse error at index.js:65,0` … `Unexpected token: eof` for a 64-line file whose new guard at
 * line 4 opens a block it never closes). The PR's first changed line that opens more brackets than it closes
 * (more than the line it replaced) is the place.
 */
function openedBeforeEnd(diff: PrDiff | undefined, ws: Workspace, file: string, line: number): number | undefined {
  const hunks = diff?.byFile.get(file)?.hunks;
  const text = ws.lines(file);
  if (!hunks || !text) return undefined;
  const last = text[text.length - 1] === '' ? text.length - 1 : text.length;
  if (line <= last) return undefined;
  for (const h of hunks) {
    for (const [i, a] of h.added.entries()) {
      const removed = h.removed[i];
      if (removed !== undefined ? bracketNet(a.text) > bracketNet(removed) : bracketNet(a.text) > 0) return a.n;
    }
  }
  return undefined;
}

/** A shell's closing keyword the parser did not expect (`` `fi' unexpected ``), and the keyword that opens what it closes. */
const UNEXPECTED_CLOSER = /[`'"‘](fi|done|esac)['"’] unexpected|unexpected [`'"‘]?(fi|done|esac)\b/;
const OPENER_OF: Readonly<Record<string, string>> = { fi: 'then', done: 'do', esac: 'in' };
/** How far above the reported closer the PR's change may have dropped its opener: one compound command. */
const SHELL_OPENER_SPAN = 20;

/**
 * A shell that meets `fi`, `done` or `esac` it did not expect is missing the `then`, `do` or `in` that opens the
 * construct (ksh's `bin/zgrep: syntax error at line 202: \`fi' unexpected` for an `elif` whose `; then` the PR
 * dropped on line 199). The PR's changed line just above whose old text had that keyword and whose new text
 * no longer has it is the place.
 */
function openerDroppedAbove(diff: PrDiff | undefined, file: string, line: number, message: string): number | undefined {
  const m = UNEXPECTED_CLOSER.exec(message);
  const hunks = diff?.byFile.get(file)?.hunks;
  if (!m || !hunks) return undefined;
  const opener = new RegExp(String.raw`(?:^|[\s;])${OPENER_OF[m[1] ?? m[2]!]!}(?:$|[\s;])`);
  const count = (lines: readonly string[]) => lines.filter((l) => opener.test(l)).length;
  for (const h of hunks) {
    const first = h.added[0];
    if (!first || first.n > line || first.n < line - SHELL_OPENER_SPAN) continue;
    if (count(h.removed) <= count(h.added.map((a) => a.text))) continue;
    const i = h.removed.findIndex((r) => opener.test(r));
    return (h.added[i] ?? h.added[h.added.length - 1])!.n;
  }
  return undefined;
}

/** A YAML parser's report: it counts lines from the start of the YAML it was handed. */
const YAML_REPORT = /\bYAML\b|\bmapping values are not allowed\b/i;
/** Documents that open with YAML front matter between `---` lines (Markdown, HTML and template pages, AsciiDoc, reST). */
const FRONT_MATTER_DOC = /\.(?:md|markdown|mdx|html?|njk|liquid|hbs|adoc|asciidoc|rst|qmd|Rmd)$/i;
/** How far down a front matter's closing `---` may be. */
const FRONT_MATTER_SPAN = 200;

/**
 * A document's front matter is YAML under a `---` line: pandoc, Jekyll, Hugo and every static site generator hand
 * the block alone to their YAML parser, whose `at line 1, column 22` counts from the line under the `---`. A
 * report placed inside the front matter of such a file is one line further down in the file.
 */
function frontMatterLine(ws: Workspace, file: string, line: number, message: string): number | undefined {
  if (!YAML_REPORT.test(message) || !FRONT_MATTER_DOC.test(file)) return undefined;
  const text = ws.lines(file);
  if (!text || text[0]?.trimEnd() !== '---') return undefined;
  let close = 0;
  for (let n = 2; n <= Math.min(text.length, FRONT_MATTER_SPAN); n++) {
    if (/^(?:---|\.\.\.)\s*$/.test(text[n - 1]!)) {
      close = n;
      break;
    }
  }
  return close > 0 && line + 1 < close ? line + 1 : undefined;
}


/**
 * A report of a separator the parser did not find (`possibly a missing semicolon (';')`, `expected ';' before …`,
 * Bison's `expecting ';'`, protobufjs' `illegal token '}', ';' expected (line 18)`).
 */
const MISSING_SEPARATOR = /\bmissing (?:a )?(semicolon|comma)\b|\bmissing ['"`‘]([;,])['"`’]|\bexpect(?:ed|ing) (?:an? )?['"`‘]([;,])['"`’]|\b(semicolon|comma) expected\b|['"`‘]([;,])['"`’] expected\b/i;
/** Lines a parser reads past without a token: blank ones and comments. */
const NO_TOKENS = /^\s*(?:$|\/\/|\/\*|\*|#(?!\s*(?:include|define|if|else|endif|pragma)\b)|--|;)/;
/**
 * A `#` line is a comment in every language that has them but those run through a C preprocessor, where
 * `#define` is code: a configuration file's commented-out example (BIRD's `# define my_asn = 65000;`) is
 * no statement a parser read.
 */
const PREPROCESSED = /\.(?:c|h|cc|cpp|cxx|hh|hpp|hxx|ipp|inl|m|mm|i|swg|y|l|S|F|F90|x|def)$/;
const noTokens = (t: string, file: string): boolean => NO_TOKENS.test(t) || (!PREPROCESSED.test(file) && /^\s*#/.test(t));
/** Code lines above the reported one a parser may have read past, looking for the separator. */
const SEPARATOR_READ_PAST = 2;

/**
 * A parser misses a separator where the next declaration begins (SWIG's `cJSON.h:159: Error: Syntax error -
 * possibly a missing semicolon` for a prototype on lines 155-156 with comments between). When the reported
 * line is not one the PR changed, the nearest changed code line above it (over blank lines and comments)
 * that does not end with that separator is the place.
 */
function separatorMissingAbove(diff: PrDiff | undefined, ws: Workspace, file: string, line: number, message: string): number | undefined {
  const m = MISSING_SEPARATOR.exec(message);
  const hunks = diff?.byFile.get(file)?.hunks;
  const text = ws.lines(file);
  // a reported line the PR added that only closes a bracket (VCC's `Expected ';' got '}'` on the `}` the PR added
  // under its statement) has no separator to miss: the code above it does
  const closesOnly = /^\s*[)\]}]+\s*$/.test(text?.[line - 1] ?? '');
  const word = m?.[1] ?? m?.[4];
  const sep = m ? (word ? (word.toLowerCase() === 'comma' ? ',' : ';') : (m[2] ?? m[3] ?? m[5])!) : undefined;
  // a reported line that already ends with the separator the report misses (ISC dhcpd's `line 55: semicolon
  // expected.` on the statement after the one that lacks it) does not miss it, changed or not: the code above does
  const hasIt = sep !== undefined && (text?.[line - 1] ?? '').trimEnd().endsWith(sep);
  if (!hunks && text && sep && (hasIt || /^\s*[)\]}]+[;,]?\s*$/.test(text[line - 1] ?? ''))) return lacksBeforeCloser(text, line, file, sep);
  if (!(m || PARSE_REPORT.test(message)) || !hunks || (!closesOnly && !hasIt && hunks.some((h) => h.added.some((a) => a.n === line)))) return undefined;
  if (!text) return undefined;
  const added = new Set(hunks.flatMap((h) => h.added).map((a) => a.n));
  let code = 0;
  for (let n = line - 1; n >= 1 && code < SEPARATOR_READ_PAST; n--) {
    const t = text[n - 1] ?? '';
    if (noTokens(t, file)) continue;
    code++;
    if (!added.has(n)) continue;
    if (sep) return t.trimEnd().endsWith(sep) ? undefined : n;
    // a parser that names no token: the changed line that leaves a bracket open (Stylus' `ParseError:
    // size.styl:24:5` for `if length(arguments == 1` on line 23), or whose change dropped the separator
    // its old text ended with (SDCC's `_atof.c:68: syntax error: token -> '}'` for `fraction*=0.1;` made
    // `fraction*=0.1f` on line 67)
    return unbalanced(t) || droppedSeparator(hunks, n, t) || lacksNeighbourSeparator(text, n) ? n : undefined;
  }
  return undefined;
}

/**
 * Without the diff: a report that a separator is missing, placed on a line that only closes a bracket, its own
 * separator aside (named-checkconf's `a.conf:15: missing ';' before '}'` on `};`, rpcgen's `a.x, line 31:
 * expected ';'` on `};`), or on a line that already ends with that separator (Kamailio's `line 628, column 3-6:
 * bad command: missing ';'?` on `exit;`, ISC dhcpd's `line 55: semicolon expected.` on the next statement), is
 * about the code line just above it (over blank lines and comments), when that line does not end with the
 * separator nor opens a bracket: the parser says where it noticed, at the token after the statement; the line
 * above is where the separator belongs.
 */
function lacksBeforeCloser(text: readonly string[], line: number, file: string, sep: string): number | undefined {
  for (let n = line - 1; n >= 1; n--) {
    const t = text[n - 1] ?? '';
    if (noTokens(t, file)) continue;
    return t.trimEnd().endsWith(sep) || /[{([]\s*$/.test(t) ? undefined : n;
  }
  return undefined;
}

/**
 * A line that ends where a statement cannot: with the separator, an opening bracket, a list's comma or an operator
 * (`attrs //`, `a +`, `x =`), so the code goes on below it. A single word (`let`, `in`) opens what follows.
 */
const OPEN_END = /[;,{([=:+\-*\/|&\\.<>?!]\s*$/;
/** The code on a reported line before the token a parser did not expect: one word, nothing else. */
const ONE_WORD = /^\s*[A-Za-z_][\w'-]*\s*$/;

/**
 * A parser that wanted a separator and met the token after the next line's first word (Nix's `syntax error,
 * unexpected '=', expecting ';'` at `lib.nix:37:14`, the `=` of `op = …` under `ret = f system` whose `;` the PR
 * dropped on line 36) read that word as going on with the line above: the code line above, when it ends where a
 * statement may end and holds more than one word, is the place. Read without the PR's diff, from the file alone;
 * with the diff, separatorMissingAbove places the change.
 */
function separatorLostBeforeWord(diff: PrDiff | undefined, ws: Workspace, file: string, line: number, column: number | undefined, message: string): number | undefined {
  const text = ws.lines(file);
  if (!MISSING_SEPARATOR.test(message) || column === undefined || diff?.byFile.get(file)?.hunks || !text) return undefined;
  if (!ONE_WORD.test((text[line - 1] ?? '').slice(0, column - 1))) return undefined;
  for (let n = line - 1; n >= 1 && line - n <= SEPARATOR_READ_PAST + 1; n--) {
    const t = text[n - 1] ?? '';
    if (noTokens(t, file)) continue;
    return ONE_WORD.test(t) || OPEN_END.test(t) ? undefined : n;
  }
  return undefined;
}

/** How far above an added line its neighbour statement may be, over blank lines and comments. */
const NEIGHBOUR_SPAN = 4;

/**
 * An added statement or list item that does not end with the separator the code line above it ends with
 * (OpenSCAD's `body_radius = 10` under `debug = true;`, AppArmor's `/usr/bin/soelim rmCx -> &man_groff` under
 * `/usr/bin/vgrind rmCx -> &man_groff,`): a parser naming no token read past it. A line that opens or closes a
 * bracket, or one already ending in a separator of its own, is none.
 */
function lacksNeighbourSeparator(text: readonly string[], n: number): boolean {
  const t = text[n - 1]!.trimEnd();
  if (/[;,{}()[\]:]$/.test(t) || unbalanced(t)) return false;
  for (let k = n - 1; k >= 1 && n - k <= NEIGHBOUR_SPAN; k--) {
    const above = text[k - 1] ?? '';
    if (NO_TOKENS.test(above)) continue;
    return LINE_SEPARATOR.test(above.trimEnd());
  }
  return false;
}

/** A doc comment's opening line (`/**`, `/*!`, `///`, `//!`), where a documentation tool places its report. */
const DOC_OPENER = /^\s*(?:\/\*[*!]|\/\/[/!])/;
/** How many lines a doc comment and the declaration under it may take. */
const DOC_SPAN = 40;

/**
 * A documentation tool places its report in the doc comment (Doxygen's `yaml.h:1335: error:
 * argument 'input' of command @param is not found in the argument list of f(…, const unsigned char *string,
 * …)` for a parameter renamed on line 1348). When that line is not one the PR changed, the changed line in
 * the comment or in the declaration it documents (up to the first line ending in `;`, `{` or `}` after the
 * comment) that has a word the report names is the place.
 */
function documentedBelow(diff: PrDiff | undefined, ws: Workspace, file: string, line: number, message: string): number | undefined {
  const hunks = diff?.byFile.get(file)?.hunks;
  const text = ws.lines(file);
  if (!hunks || !text) return undefined;
  // the report's line opens the comment, or is inside it (Doxygen places it on the brief description, under `/**`)
  let top = line;
  while (top > 1 && line - top < DOC_SPAN && !DOC_OPENER.test(text[top - 1] ?? '') && /^\s*(?:\*(?!\/)|\/\/[/!])/.test(text[top - 1] ?? '')) top--;
  const opener = text[top - 1];
  if (opener === undefined || !DOC_OPENER.test(opener)) return undefined;
  const added = new Map(hunks.flatMap((h) => h.added).map((a) => [a.n, a.text] as const));
  if (added.has(line)) return undefined;
  const words = reportWords(message);
  const has = (t: string) => [...t.matchAll(SPAN_WORD)].some((m) => words.has(m[0].toLowerCase()));
  const block = /^\s*\/\*/.test(opener);
  let inComment = true;
  for (let n = line; n <= line + DOC_SPAN && n <= text.length; n++) {
    const t = text[n - 1]!;
    const changed = added.get(n);
    if (changed !== undefined && has(changed)) return n;
    if (inComment) {
      inComment = block ? !t.includes('*/') : /^\s*\/\/[/!]/.test(text[n] ?? '');
      continue;
    }
    if (/[;{}]\s*$/.test(t)) return undefined;
  }
  return undefined;
}

/** A statement's or a list item's closing separator. */
const LINE_SEPARATOR = /[;,]$/;

/**
 * Whether the changed line `n` (now `text`) replaced a line that ended with a separator it no longer ends with. A
 * statement the change split over more lines (omniidl's `void f(in T x);` made `void f(in T x)` and `  raises
 * (E)`) ends at the hunk's last added line, which takes the place of the last removed one.
 */
function droppedSeparator(hunks: readonly Hunk[], n: number, text: string): boolean {
  for (const h of hunks) {
    const i = h.added.findIndex((a) => a.n === n);
    if (i < 0) continue;
    const grew = i === h.added.length - 1 && h.removed.length > 0 && h.removed.length < h.added.length;
    const old = (grew ? h.removed[h.removed.length - 1] : h.removed[i])?.trimEnd();
    const sep = old !== undefined ? LINE_SEPARATOR.exec(old)?.[0] : undefined;
    return sep !== undefined && !text.trimEnd().endsWith(sep);
  }
  return false;
}

/** A reader that ran out of input inside something it opened (`unexpected end-of-file reading list at line 24`). */
const RAN_OUT = /\bend[- ]of[- ](?:file|input)\b|\bEOF\b|\bunterminated\b|\bunclosed\b|\b[Pp]remature end\b/i;

/**
 * A report that the input ended inside a form opened at the reported line (Chez Scheme's `unexpected
 * end-of-file reading list at line 24` for the `(let ()` a change on line 57 left open): the PR's changed
 * line at or below it whose change drops a closing bracket, or opens more than it closes, is the place.
 */
function closerDroppedBelow(diff: PrDiff | undefined, file: string, line: number, message: string): number | undefined {
  const hunks = diff?.byFile.get(file)?.hunks;
  if (!RAN_OUT.test(message) || !hunks || hunks.some((h) => h.added.some((a) => a.n === line))) return undefined;
  const net = (t: string) => bracketNet(t);
  for (const h of hunks) {
    for (const [i, a] of h.added.entries()) {
      if (a.n < line) continue;
      const removed = h.removed[i];
      if (removed !== undefined ? net(a.text) > net(removed) : net(a.text) > 0) return a.n;
    }
  }
  return undefined;
}

/** How far above a parse report the change that left a bracket open may be: a rule or a statement or two. */
const CLOSER_DROPPED_SPAN = 15;

/**
 * A parser that read on past a bracket a change left open reports where it finally gave up, on a line the PR did
 * not change (nearley's `Syntax error at line 17 col 1:` / `Unexpected word token` at the next rule, for the `)`
 * dropped from `int -> ("-"|"+"):?` on line 7): the nearest changed line above it, within a few lines, whose change
 * opens more brackets than its old text did is the place. So is one whose change only took code out (a comma, a
 * closing bracket, an operator): the parser read on past the gap and stopped at the next token (json5's and Hjson's
 * next key, luaparse's next alternative), a late report of the same family.
 */
function closerDroppedAbove(diff: PrDiff | undefined, file: string, line: number, message: string): number | undefined {
  const hunks = diff?.byFile.get(file)?.hunks;
  if (!(PARSE_REPORT.test(message) || LATE_PARSE_REPORT.test(message)) || !hunks || hunks.some((h) => h.added.some((a) => a.n === line))) return undefined;
  const net = (t: string) => bracketNet(t);
  let best: number | undefined;
  for (const h of hunks) {
    for (const [i, a] of h.added.entries()) {
      const removed = h.removed[i];
      if (a.n >= line || line - a.n > CLOSER_DROPPED_SPAN || removed === undefined || (net(a.text) <= net(removed) && !onlyDeletes(removed, a.text))) continue;
      if (best === undefined || a.n > best) best = a.n;
    }
  }
  return best;
}

/**
 * A reader's report of input it could not take: a parse error, or a character or token it did not expect. A parser's
 * own error class counts, prefixed with its library's name (svgo's `SvgoParserError: a.svg:31:11: Invalid attribute
 * name` under an attribute whose closing quote the PR dropped on line 30).
 */
const READ_FAULT = /\b\w*(?:Parser?|Syntax)Error\b|\b(?:parse|syntax) error\b|\bunexpected\b|\binvalid (?:character|token|syntax)\b|\bexpect(?:ed|ing)\b|\bmissing\b/i;

/**
 * A reader meets what a change broke only at the next token, and that is often the next line (json5's `invalid
 * character '"' at 12:3` under the `"license": "MIT"` whose comma the PR dropped on line 11; MuJS' next entry
 * after a lost comma): a reader's report on a line the PR did not change, whose nearest code line above the PR
 * did change, is that change. The reported line itself read before the PR, so the change is what it stumbled on.
 */
function changedJustAbove(diff: PrDiff | undefined, ws: Workspace, file: string, line: number, message: string): number | undefined {
  const hunks = diff?.byFile.get(file)?.hunks;
  const text = ws.lines(file);
  if (!READ_FAULT.test(message) || !hunks || !text || isChangedLine(diff, file, line)) return undefined;
  let above = line - 1;
  while (above >= 1 && !text[above - 1]!.trim()) above--;
  return above >= 1 && isChangedLine(diff, file, above) ? above : undefined;
}

/**
 * A change that only took code out of its line (the old text, spaces aside, with characters deleted and none
 * added: `"license": "MIT",` → `"license": "MIT"`, `],` → `,`, a `+` between two alternatives dropped): what a
 * parser that reads on past it reports at the next token it cannot take, a line or more below (json5's next key,
 * Hjson's, luaparse's next alternative).
 */
function onlyDeletes(before: string, after: string): boolean {
  const old = before.replace(/\s+/g, '');
  const now = after.replace(/\s+/g, '');
  if (now.length >= old.length) return false;
  let i = 0;
  for (const c of old) if (i < now.length && c === now[i]) i++;
  return i === now.length;
}

/**
 * A parser's report of what it wanted where it stopped, in words PARSE_REPORT leaves to the separator rules: a
 * quoted token then `expected` (luaparse's `')' expected near 'Ct'`, Lua's own), what it was `expecting` (Hjson,
 * JavaCC), a character it could not take (json5's `invalid character '"' at 12:3`).
 */
const LATE_PARSE_REPORT = /['"\`‘][^'"\`’\s]{1,20}['"\`’] expected\b(?! by\b)|\b(?:when|while|was|were) expecting\b|\bcheck your syntax\b|\binvalid character\b/i;

/** A parser's report that names no token it missed: `ParseError: a.styl:24:5`, `syntax error`, `unexpected …`. */
/** A report that a block as a whole did not parse: its line is the block's head, not the broken line. */
const BLOCK_FAULT = /\bvalidity of the block\b|\bblock (?:starting|beginning) (?:from|at) line\b/i;
const PARSE_REPORT = /\b(?:Parse|Syntax)Error\b|\b(?:parse|syntax) error\b|\bunexpected\b|\b(?:error|failed) (?:during|while|when) parsing\b/i;

/** Python's parser on a bracket left open: flake8's `E901 SyntaxError: invalid syntax`, CPython's `SyntaxError`, `EOF in multi-line statement`. */
const PY_SYNTAX = /\bSyntaxError\b|\binvalid syntax\b|\bEOF in multi-line statement\b|\bunexpected EOF while parsing\b/;
/** A line that begins a Python statement (the parser meets it inside the bracket and stops there). */
const PY_STATEMENT = /^\s*(?:@|(?:async\s+)?def\b|class\b|if\b|elif\b|else\b|for\b|while\b|return\b|import\b|from\b|with\b|try\b|except\b|finally\b|raise\b|pass\b)/;
/** Code lines above the reported one where the unclosed bracket may have been opened. */
const PY_OPENER_SPAN = 5;
/** How much the opener outranks the other reports on the reported line. */
const SYNTAX_OPENER_LIFT = 0.05;

/**
 * Python reports a bracket left open (`_("Name of User)", blank=True)`, a quote inside the string) at the
 * next statement it cannot parse inside it (`def __str__(self):`, two lines on). When the reported line
 * begins a statement and a line above it opened a bracket that is still open there, that line is the
 * place. A report inside a multi-line call that closes by the reported line is left where it is.
 */
function unclosedOpenerAbove(ws: Workspace, file: string, line: number): number | undefined {
  const text = ws.lines(file);
  if (!text || !PY_STATEMENT.test(text[line - 1] ?? '')) return undefined;
  let open = bracketNet(text[line - 1] ?? '', true);
  let code = 0;
  for (let n = line - 1; n >= 1 && code < PY_OPENER_SPAN; n--) {
    const t = text[n - 1] ?? '';
    if (/^\s*(?:#|$)/.test(t)) continue;
    code++;
    const net = bracketNet(t, true);
    open += net;
    if (open > 0) return net > 0 ? n : undefined;
  }
  return undefined;
}

/** A line's code with its string literals left out (`'('` opens nothing). */
const withoutStrings = (text: string): string => text.replace(/(["'`])(?:\\.|(?!\1).)*\1/g, '');

/** Brackets a line opens minus those it closes, strings (and, for Python, `#` comments) left out. */
function bracketNet(text: string, hashComments = false): number {
  const strings = withoutStrings(text);
  const code = hashComments ? strings.replace(/#.*$/, '') : strings;
  return (code.match(/[([{]/g)?.length ?? 0) - (code.match(/[)\]}]/g)?.length ?? 0);
}

/** A line that opens more brackets of a kind than it closes (strings left out). */
function unbalanced(text: string): boolean {
  const code = withoutStrings(text);
  const count = (c: string) => code.split(c).length - 1;
  return count('(') > count(')') || count('[') > count(']') || count('{') > count('}');
}

/** A report's own words, which a source line may hold by chance. */
const REPORT_WORDS = new Set(['definition', 'unrecognized', 'rule', 'syntax', 'unexpected', 'expected', 'identifier', 'unknown', 'missing', 'invalid', 'cannot', 'function', 'variable', 'type', 'argument', 'arguments', 'file', 'end', 'near', 'before', 'after', 'token', 'parse', 'fatal', 'has', 'with', 'this', 'that', 'from', 'into', 'name']);

/**
 * The PR's change in a file a located-nowhere report names (the evidence's `Unexpected end of file on …/x.lisp`):
 * the first changed line sharing a word with the report, else the change when it is one hunk; else none.
 */
function changeNamedBy(diff: PrDiff | undefined, file: string, message: string): number | undefined {
  const hunks = diff?.byFile.get(file)?.hunks.filter((h) => h.added.length);
  if (!hunks?.length) return undefined;
  const words = reportWords(message);
  // the changed line sharing the most of the report's words (TypeDoc's `@param with name "template"` is the
  // `@param template` line, not the summary above it that also says "template"); the first of equals
  let named: { n: number; shared: number } | undefined;
  for (const a of hunks.flatMap((h) => h.added)) {
    const shared = new Set([...a.text.matchAll(SPAN_WORD)].map((m) => m[0].toLowerCase()).filter((w) => words.has(w))).size;
    if (shared > (named?.shared ?? 0)) named = { n: a.n, shared };
  }
  return named?.n ?? (hunks.length === 1 ? hunks[0]!.added[0]!.n : undefined);
}

/** How far below a frame its traceback's report may sit (pytest: the frame, its source line, then the report's location). */
const REPORT_AFTER_FRAME = 4;

/**
 * Frames whose traceback goes on into the report's own location (pytest's `pkg/__init__.py:5: in <module>`
 * with its `E   ModuleNotFoundError` is a diagnostic, not a frame): such a frame is a caller, so it is not
 * the innermost one however the frames alone are ordered.
 */
function framesIntoReport(signals: readonly Signal[]): Set<Signal> {
  const out = new Set<Signal>();
  for (let i = 0; i < signals.length; i++) {
    const f = signals[i]!;
    if (f.kind !== 'frame') continue;
    const next = signals.slice(i + 1, i + 4).find((x) => x.kind === 'frame' || x.kind === 'diagnostic' || x.kind === 'test');
    if (next?.kind === 'diagnostic' && next.tool === f.tool && next.path && next.line !== undefined && next.logLine > f.logLine && next.logLine - f.logLine <= REPORT_AFTER_FRAME) out.add(f);
  }
  return out;
}

/** A test framework's assertion API: JUnit 3/4/5, TestNG, Hamcrest, AssertJ, Truth. */
const JVM_ASSERT_API = /^(?:org\.junit\.(?:Assert|jupiter\.api\.Assert\w*)|junit\.framework\.(?:Assert|TestCase)|org\.testng\.Assert|org\.hamcrest\.MatcherAssert|org\.assertj\.|com\.google\.common\.truth\.)/;
export const ASSERTION_HELPER = 'calls the test framework\'s assert: it checks the result, it does not make it';
/**
 * A project's own assertion library: a class whose simple name is an assertion API's (`Assert`, `Asserts`,
 * `Assertions`, `JsonAssert`), or a class nested in one (`melnorme.utilbox.core.Assert$AssertHandler`).
 * Its frames are the check that failed, as JUnit's would be, not code that made the wrong value; since it
 * lives in the repository, they would otherwise be the innermost in-repo frame and the pin.
 */
const OWN_ASSERT_CLASS = /(?:^|\.)(?:[A-Z]\w*)?Assert(?:s|ions)?(?:\$[\w$]+)?\.[\w$<>]+$/;
/** A JVM frame of an assertion API: a test framework's, or the project's own assertion class. */
export function isAssertionApiFrame(s: Signal): boolean {
  return s.tool === 'jvm-frame' && (JVM_ASSERT_API.test(s.symbol ?? '') || OWN_ASSERT_CLASS.test(s.symbol ?? ''));
}

/**
 * The frames that called an assertion API directly (a project's `BoxComparator.check` calling
 * `Assert.assertArrayEquals`): a JVM trace prints the callee just above its caller, so it is the frame
 * printed on the line before. Such a frame failed because the checked value was wrong, which the code the
 * test ran produced; it is no more the place than the test's own line.
 */
function assertionHelpers(signals: readonly Signal[]): Set<Signal> {
  const out = new Set<Signal>();
  let prev: Signal | undefined;
  for (const s of signals) {
    if (s.kind !== 'frame') continue;
    if (s.tool === 'jvm-frame' && prev?.tool === 'jvm-frame' && s.logLine - prev.logLine === 1 && isAssertionApiFrame(prev)) out.add(s);
    prev = s;
  }
  return out;
}

/** A `catch` that wraps what it caught and throws it on: `catch (IOException e) { throw new DbException(e); }`. */
const RETHROW = /^\s*throw\s+new\s+[\w.]+\(\s*(?:"[^"]*"\s*(?:\+\s*[\w.()]+\s*)?,\s*)?\w+\s*\)\s*;/;
/** How far above the `throw` its `catch (` may be. */
const CATCH_SPAN = 3;

/**
 * The innermost frame that only relays (a catch re-throwing what it caught, wrapped) says nothing of why:
 * the call below it in the stack, what the code was asked to do, is the pin. Its caller is lifted just
 * above it.
 */
function passOverRelays(out: Candidate[], outer: ReadonlyMap<Signal, Signal>, ws: Workspace): void {
  for (const c of out) {
    if (c.cause !== 'frame' || c.depth !== 0 || isTestFile(c.file)) continue;
    const lines = ws.lines(c.file);
    if (!lines || !RETHROW.test(lines[c.line - 1] ?? '')) continue;
    if (!lines.slice(Math.max(0, c.line - 1 - CATCH_SPAN), c.line - 1).some((l) => /\bcatch\s*\(/.test(l))) continue;
    const up = outer.get(c.signals[0]!);
    const caller = up && out.find((o) => o.signals[0] === up);
    if (!caller || isTestFile(caller.file)) continue;
    caller.score = Math.max(caller.score, c.score + 0.01);
    caller.notes.push(`the frame below only re-throws what it caught (${c.file}:${c.line}); this call is where it failed`);
  }
}

/**
 * Depth of each in-repo frame within its stack (0 = innermost in-repo), stacks being runs of nearby frames;
 * and the frames of stacks that pass through a test file (a failing test's, or any test's), i.e. code the
 * tests called.
 */
function stackDepths(signals: readonly Signal[], ws: Workspace | undefined): { depth: Map<Signal, number>; underTest: Set<Signal>; outer: Map<Signal, Signal> } {
  const depth = new Map<Signal, number>();
  const underTest = new Set<Signal>();
  // Each in-repo frame's caller: the next frame out in the same stack.
  const outer = new Map<Signal, Signal>();
  const fileOf = (p: string) => (ws ? mapLogPath(ws, p)?.file : stripCiPrefix(p));
  let stack: Signal[] = [];
  const flush = () => {
    // The project's own assertion class is counted out like a framework's: depth starts at its caller.
    const inRepo = stack.filter((f) => !isAssertionApiFrame(f) && f.path && ((f.weight > 0.05 && !isExternalPath(stripCiPrefix(f.path)) && (!ws || mapLogPath(ws, f.path))) || (ws && installedCopyOf(ws, f.path))));
    const ordered = inRepo.length && INNERMOST_LAST.has(inRepo[0]!.tool ?? '') ? [...inRepo].reverse() : rootCauseFirst(inRepo);
    ordered.forEach((f, i) => {
      depth.set(f, i);
      if (ordered[i + 1]) outer.set(f, ordered[i + 1]!);
    });
    const owned = stack.length > 0 && nearFailingTest(stack);
    if (owned && (ordered.some((f) => isTestFile(fileOf(f.path!) ?? '')) || (ordered.length > 0 && fromTestFile(ordered)))) for (const f of ordered) underTest.add(f);
    stack = [];
  };
  // A failing test's report line (pytest's `E …`, unittest's exception, Maven's `<<< ERROR!`) ends one
  // traceback and heads the next: frames on either side of it are different stacks, however close.
  // pytest prints a test's `E` lines inside its traceback, above the entry that raised (`pkg/x.py:43:
  // ImportError`): its section begins at the first `>` line it marked, so that is where its traceback starts.
  const tests = signals.filter((s) => s.kind === 'test');
  const startOf = (t: Signal) => (t.tool === 'pytest' ? Math.min(t.logLine, ...(t.related ?? [])) : t.logLine);
  const breaks = tests.map(startOf).sort((a, b) => a - b);
  // pytest folds the test function's own entry (the traceback's outermost) into the test's report: a stack
  // inside that report passes through the test file as surely as one that prints its frame.
  const fromTestFile = (frames: Signal[]) => {
    const first = Math.min(...frames.map((f) => f.logLine));
    const last = Math.max(...frames.map((f) => f.logLine));
    return tests.some((t) => t.tool === 'pytest' && t.path && isTestFile(fileOf(t.path) ?? '') && startOf(t) < first && t.logLine <= last + FAILURE_TRAILER_SPAN && first - startOf(t) <= FAILURE_HEADER_SPAN);
  };
  const breakBetween = (a: number, b: number) => breaks.some((n) => n > a && n < b);
  // Only a failing test's own stack says "the code it called raised": a stack a passing test printed
  // through its logger (jest's `console.error` with its trace) passes through a test file too.
  // The report must be this stack's own: above it with no other stack in between, or just below it.
  let previousEnd = -Infinity;
  const nearFailingTest = (frames: Signal[]) => {
    const first = Math.min(...frames.map((f) => f.logLine));
    const last = Math.max(...frames.map((f) => f.logLine));
    const own = breaks.some((n) => (n > previousEnd && n < first && first - n <= FAILURE_HEADER_SPAN) || (n > last && n <= last + FAILURE_TRAILER_SPAN));
    previousEnd = last;
    return own;
  };
  for (const s of signals) {
    if (s.kind !== 'frame') continue;
    const prev = stack[stack.length - 1];
    // Python's long tracebacks print source between frames; other runtimes print frames back to back.
    const gap = INNERMOST_LAST.has(s.tool ?? '') ? 40 : 3;
    // A `Caused by:` continues the stack above it, however far its exception's lines push the frame.
    const start = s.tool === 'jvm-frame' && s.related?.length ? s.related[0]! : s.logLine;
    if (prev && (start - prev.logLine > gap || s.tool !== prev.tool || breakBetween(prev.logLine, s.logLine))) flush();
    stack.push(s);
  }
  flush();
  return { depth, underTest, outer };
}

/**
 * A JVM trace prints the wrapping exception first and its `Caused by:` chain below it; the deepest cause's
 * first frame is where the error was raised. The frame matcher ties each `Caused by:` line to the first
 * project frame under it (`related`), so each such frame starts a segment: the last segment comes first.
 */
function rootCauseFirst(frames: Signal[]): Signal[] {
  const segments: Signal[][] = [[]];
  for (const f of frames) {
    if (f.tool === 'jvm-frame' && f.related?.length && segments[segments.length - 1]!.length) segments.push([]);
    segments[segments.length - 1]!.push(f);
  }
  return segments.reverse().flat();
}

/** The first line of a repo file where a token occurs as a whole word, if any. */
export function findToken(ws: Workspace, file: string, token: string): number | undefined {
  const lines = ws.lines(file);
  if (!lines) return undefined;
  const re = new RegExp(`(^|[^\\w$])${token.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\w$])`);
  const i = lines.findIndex((l) => re.test(l));
  return i === -1 ? undefined : i + 1;
}

/** The message of the test or error a frame belongs to: the nearest non-frame signal just above it. */
function headlineFor(frame: Signal, signals: readonly Signal[]): string | undefined {
  let best: Signal | undefined;
  for (const s of signals) {
    if (s.logLine > frame.logLine) break;
    if (s.kind === 'test' || (s.kind === 'diagnostic' && s.tool !== 'generic')) best = s;
  }
  if (best && frame.logLine - best.logLine <= 80) return best.message;
  return undefined;
}
