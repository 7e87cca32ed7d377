import { historyText } from './history-line.js';
import type { Diagnosis, Finding } from '../types.js';
import {
  DEFAULT_CONTEXT_LINES,
  MAX_OTHER_FINDINGS,
  TEXT_MAX_EVIDENCE_LINES,
  TEXT_MAX_LINE_CHARS,
} from './bounds.js';
import { CAUSE_TEXT, categoryLabel, pinText } from './explain.js';
import { redactDiagnosis } from '../safety/redact.js';
import { escapeWorkflowCommands, stripHidden } from '../safety/sanitize.js';
import { cut, sourceExcerpt } from './source-excerpt.js';

export interface TextOptions {
  /** ANSI colour; the CLI passes `process.stdout.isTTY`. */
  color: boolean;
  /** The lines of a repo file, when the caller has the repo (undefined: not available). */
  source?: (file: string) => string[] | undefined;
  /** Source lines shown either side of the pin (default 2). */
  context?: number;
  /** Action mode: make every printed line inert as a workflow command (`::error::`, `##[…]`). */
  escapeCommands?: boolean;
}

type Paint = (code: string, s: string) => string;

/** Untrusted text for a terminal: no escape sequences, no bidi tricks, one line, bounded. */
const clean = (s: string, max = TEXT_MAX_LINE_CHARS): string =>
  cut(stripHidden(s).replace(/[\r\n]+/g, ' '), max);

function sourceBlock(f: Finding, opts: TextOptions, paint: Paint): string[] {
  const excerpt = sourceExcerpt(opts.source?.(f.file), f.line, f.endLine, opts.context ?? DEFAULT_CONTEXT_LINES);
  if (!excerpt) return [];
  const width = String(excerpt[excerpt.length - 1]!.n).length;
  const out: string[] = [];
  for (const l of excerpt) {
    const text = stripHidden(l.text);
    const gutter = `${l.pinned ? paint('33;1', '>') : ' '} ${paint('2', `${String(l.n).padStart(width)} │`)}`;
    out.push(`  ${gutter} ${l.pinned ? text : paint('2', text)}`);
    if (l.n === f.line && f.column !== undefined && f.column >= 1 && (f.endLine ?? f.line) === f.line) {
      // Keep tabs so the caret lands under the column however the terminal expands them.
      const lead = text.slice(0, f.column - 1).replace(/[^\t]/g, ' ');
      out.push(`    ${' '.repeat(width)} ${paint('2', '│')} ${lead}${paint('31;1', '^')}`);
    }
  }
  return out;
}

/**
 * For people at a terminal: the headline, the pin as `file:line:col`, the source around it, why,
 * up to 3 more findings and the log lines it came from (≤20 lines of ≤300 chars). Colour only when
 * `opts.color`; secrets redacted; escape sequences from the log or repo never reach the terminal.
 */
export function renderText(d: Diagnosis, opts: TextOptions): string {
  const paint: Paint = opts.color ? (code, s) => `\x1b[${code}m${s}\x1b[0m` : (_c, s) => s;
  const r = redactDiagnosis(d).diagnosis;
  const top = r.status === 'located' ? r.findings[0] : undefined;
  const out: string[] = [];

  if (top) {
    const pin = clean(pinText(top));
    out.push(`${paint('31;1', '✖')} ${paint('1', categoryLabel(r.category))} — ${paint('36;1', pin)}`);
    out.push('', `  ${paint('36;4', pin)}${top.symbol ? ` in ${paint('1', clean(top.symbol, 120))}` : ''}`);
    out.push(...sourceBlock(top, opts, paint));
    out.push('', `  ${paint('1', 'why:')} ${clean(top.message, 1000)}`);
    out.push(`       ${paint('2', `(${CAUSE_TEXT[top.cause]}; confidence ${top.confidence.toFixed(2)})`)}`);
    if (r.summary) out.push(`  ${clean(r.summary, 1000)}`);
  } else {
    const why = r.summary ? ` (${clean(r.summary, 1000)})` : '';
    out.push(`${paint('33;1', 'no location:')} ${categoryLabel(r.category)}${why}`);
  }

  if (r.history) out.push('', `  ${paint('1', 'history:')} ${clean(historyText(r.history), 1000)}`);

  const others = top ? r.findings.slice(1, 1 + MAX_OTHER_FINDINGS) : [];
  if (others.length) {
    out.push('', `  ${paint('1', 'also:')}`);
    for (const f of others) {
      const conf = paint('2', `(${f.confidence.toFixed(2)})`);
      out.push(`    ${paint('36', clean(pinText(f)))}  ${clean(f.message, 200)}  ${conf}`);
    }
  }

  if (r.evidence.length) {
    const step = r.failingStep ? ` (step "${clean(r.failingStep.name, 100)}")` : '';
    out.push('', `  ${paint('1', `log${step}:`)}`);
    const shown = r.evidence.slice(0, TEXT_MAX_EVIDENCE_LINES);
    const width = Math.max(...shown.map((e) => String(e.line).length));
    for (const e of shown) out.push(`    ${paint('2', `log:${String(e.line).padEnd(width)}`)}  ${clean(e.text)}`);
    const more = r.evidence.length - shown.length;
    if (more > 0) out.push(`    ${paint('2', `… ${more} more evidence line${more === 1 ? '' : 's'} (--format json has them all)`)}`);
  }

  const text = `${out.join('\n')}\n`;
  return opts.escapeCommands ? escapeWorkflowCommands(text) : text;
}
