import type { Signal } from '../types.js';
import type { Candidate } from './candidate.js';
import { countFilesContaining } from '../repo/ripgrep.js';
import { findFirstInRepo } from './find-in-repo.js';
import { mapLogPath, type Workspace } from '../repo/workspace.js';
import { isChangedLine, type PrDiff } from '../repo/diff.js';
import { MAX_IDENTIFIER_LOOKUPS, MAX_NAMED_SPAN_LINES } from '../limits.js';

/**
 * The fallback when no matcher located anything: identifiers from the failure that are rare in the repo
 * (ripgrep counts) point at the few files that define or use them. A name found in one file is a lead;
 * one found in fifty is noise and scores nothing.
 *
 * When the failure itself names a file of the checkout (a compiler's report with no line, or a span that
 * nothing placed), a rare word elsewhere in the repo is not a lead but a false pin: the only place looked
 * at is the span the report names, for the names the report spells as whole words. No span, no pin.
 * Documentation is never offered: a README line is not what broke a build.
 */
export async function candidatesFromIdentifiers(signals: readonly Signal[], ws: Workspace, diff: PrDiff | undefined): Promise<Candidate[]> {
  const ids = signals.filter((s) => s.kind === 'identifier' && s.symbol).slice(0, MAX_IDENTIFIER_LOOKUPS);
  if (!ids.length) return [];
  const named = namedSpans(signals, ws);
  if (named.length) return inNamedSpans(named, ids, ws, diff);
  const counts = await countFilesContaining(ws.root, ids.map((s) => s.symbol!));
  const out: Candidate[] = [];
  for (const s of ids) {
    const n = counts.get(s.symbol!) ?? 0;
    if (n === 0 || n > 3) continue;
    const hits = (await findFirstInRepo(ws, s.symbol!, 5)).filter((h) => !isDocumentation(h.file)).map((h) => uncommented(ws, h, s.symbol!));
    for (const h of hits) {
      const changed = isChangedLine(diff, h.file, h.line);
      out.push({
        file: h.file,
        line: h.line,
        cause: 'identifier',
        score: s.weight * (1 / n) + (changed ? 0.3 : 0),
        message: `\`${s.symbol}\` from the log appears here${n === 1 ? ' (the only file that has it)' : ''}`,
        symbol: s.symbol,
        signals: [s],
        notes: [`${s.symbol} is in ${n} file(s) of the repo`],
        mapped: 'search',
      });
    }
  }
  return out;
}

interface NamedSpan {
  signal: Signal;
  file: string;
  /** Absent when the report names the file but no line. */
  from?: number;
  to?: number;
}

/** Repo files that the failure's located signals (not bare identifiers) name, with the lines they name. */
function namedSpans(signals: readonly Signal[], ws: Workspace): NamedSpan[] {
  const out: NamedSpan[] = [];
  for (const s of signals) {
    if (s.kind === 'identifier' || !s.path) continue;
    const m = mapLogPath(ws, s.path);
    if (!m || m.alternatives.length) continue;
    out.push(s.line ? { signal: s, file: m.file, from: s.line, to: Math.max(s.line, s.endLine ?? s.line) } : { signal: s, file: m.file });
  }
  return out;
}

/**
 * Inside each named span, the lines that spell a name the report spells as a whole word. Compared without
 * case: CLISP and other Lisps print `SUBSEQS` for the source's `subseqs`. A whole word is one not run
 * into letters, digits, `_` or `-` (Lisp, CSS and shell names hold hyphens: `SPLIT-VECTOR-FROM-END` says
 * nothing about a bare `vector`).
 */
function inNamedSpans(named: readonly NamedSpan[], ids: readonly Signal[], ws: Workspace, diff: PrDiff | undefined): Candidate[] {
  const out: Candidate[] = [];
  for (const span of named) {
    if (span.from === undefined || span.to === undefined || span.to - span.from > MAX_NAMED_SPAN_LINES) continue;
    const lines = ws.lines(span.file);
    if (!lines) continue;
    for (const s of ids) {
      const word = wholeWord(s.symbol!);
      if (!word.test(span.signal.message)) continue;
      for (let n = span.from; n <= Math.min(span.to, lines.length); n++) {
        if (!word.test(lines[n - 1]!)) continue;
        out.push({
          file: span.file,
          line: n,
          cause: 'identifier',
          score: s.weight + (isChangedLine(diff, span.file, n) ? 0.3 : 0),
          message: `\`${s.symbol}\`, which the report names, is used here inside the lines it names (${span.from}..${span.to})`,
          symbol: s.symbol,
          signals: [span.signal, s],
          notes: [`${s.symbol} on line ${n}, inside the span ${span.file}:${span.from}..${span.to} the report names`],
          mapped: 'search',
        });
      }
    }
  }
  return out;
}

/** A line that is all comment, in the syntaxes of configuration files and scripts as of code: `#`, `//`, `;`, `--`, ` * `. */
const COMMENT_LINE = /^\s*(?:#|\/\/|;|--|\/?\*)/;

/**
 * The first line of the file where the name is code, when its first mention is in a comment: a configuration
 * file documents each directive in comments above the line that sets it (Privoxy's `#  buffer-limit` notes
 * before `buffer-limit 4096`), and what the failure quotes is the setting, not its documentation.
 */
function uncommented(ws: Workspace, h: { file: string; line: number; text: string }, symbol: string): { file: string; line: number; text: string } {
  if (!COMMENT_LINE.test(h.text)) return h;
  const lines = ws.lines(h.file);
  if (!lines) return h;
  const word = wholeWord(symbol);
  for (let n = h.line + 1; n <= lines.length; n++) {
    const t = lines[n - 1]!;
    if (!COMMENT_LINE.test(t) && word.test(t)) return { file: h.file, line: n, text: t };
  }
  return h;
}

function wholeWord(symbol: string): RegExp {
  const escaped = symbol.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\w-])${escaped}(?![\\w-])`, 'i');
}

/** Prose files and doc folders: they describe the code, they do not fail a build. */
function isDocumentation(file: string): boolean {
  return /(?:^|\/)(?:docs?|documentation)\//i.test(file) || /\.(?:md|markdown|rst|adoc|txt)$/i.test(file) || /(?:^|\/)(?:README|CHANGELOG|CHANGES|NEWS|HISTORY|AUTHORS|CONTRIBUTING|LICENSE|COPYING)(?:\.[^/]*)?$/i.test(file);
}
