import { historyMarkdown } from './history-line.js';
import type { Diagnosis, Finding } from '../types.js';
import {
  COMMENT_MAX_CHARS,
  DEFAULT_CONTEXT_LINES,
  MAX_OTHER_FINDINGS,
  MD_MAX_EVIDENCE_LINES,
  MD_MAX_LINE_CHARS,
  MD_MAX_MESSAGE_CHARS,
} from './bounds.js';
import { CAUSE_TEXT, categoryLabel, pinText } from './explain.js';
import { fitParts, shrinkLines, type Part } from './fit.js';
import { redactDiagnosis } from '../safety/redact.js';
import { codeBlock, htmlCode, inlineCode, safeUrl, sanitizeProse } from '../safety/sanitize.js';
import { cut, sourceExcerpt } from './source-excerpt.js';

export interface MarkdownOptions {
  /** The lines of a repo file (at the head commit), for the collapsed excerpt. */
  source?: (file: string) => string[] | undefined;
  /** Link to the full job log / the artifact with the full log and outputs (https only). */
  logUrl?: string;
  artifactsUrl?: string;
  /** One short line in the footer inviting feedback (our own text, e.g. "Right pin? React 👍 or 👎"). */
  feedback?: string;
  /** Hidden marker so a re-run finds and updates this comment instead of posting again. */
  fingerprint?: string;
  /** A blob permalink at the head SHA for file:line (https only). */
  permalink?: (file: string, line: number) => string;
  /** Source lines either side of the pin (default 2). */
  context?: number;
  /** Default: GitHub's 65,536-character comment limit (pass 65,535 for check-run output). */
  maxChars?: number;
}

const LIMIT_NOTE = (max: number): string => `GitHub's ${max.toLocaleString('en-US')}-character limit`;

/** The pin as inline code, linked to the permalink when there is a safe one. */
function pinLink(f: Finding, opts: MarkdownOptions): string {
  const code = inlineCode(cut(pinText(f), 300));
  const url = safeUrl(opts.permalink?.(f.file, f.line));
  return url && url.length <= 2000 ? `[${code}](${url})` : code;
}

const EXT_LANG: Record<string, string> = {
  ts: 'ts', tsx: 'tsx', mts: 'ts', cts: 'ts', js: 'js', jsx: 'jsx', mjs: 'js', cjs: 'js', py: 'python',
  go: 'go', rs: 'rust', java: 'java', kt: 'kotlin', c: 'c', h: 'c', cc: 'cpp', cpp: 'cpp', hpp: 'cpp',
  cs: 'csharp', rb: 'ruby', php: 'php', swift: 'swift', scala: 'scala', sh: 'bash', yml: 'yaml', yaml: 'yaml',
  json: 'json', toml: 'toml', md: 'markdown',
};

function langOf(file: string): string {
  const ext = /\.([A-Za-z0-9]+)$/.exec(file)?.[1]?.toLowerCase() ?? '';
  return EXT_LANG[ext] ?? '';
}

/** A prose paragraph that shrinks by cutting its untrusted text and saying so. */
function prosePart(render: (text: string) => string, text: string, max: number): Part {
  const full = cut(text, MD_MAX_MESSAGE_CHARS);
  return {
    text: render(full),
    shrink: (budget) =>
      shrinkLines([full], (kept, n) => (kept.length ? render(`${kept[0]}${n ? ` (cut to fit ${LIMIT_NOTE(max)})` : ''}`) : ''), budget),
  };
}

function evidencePart(d: Diagnosis, opts: MarkdownOptions, max: number): Part | undefined {
  if (!d.evidence.length) return undefined;
  const shown = d.evidence.slice(0, MD_MAX_EVIDENCE_LINES);
  const width = Math.max(...shown.map((e) => String(e.line).length));
  // Blocks (an error with its trace, an assertion, the summary) are set apart by a blank line.
  const lines = shown.flatMap((e, i) => [
    ...(i > 0 && e.block !== undefined && e.block !== shown[i - 1]!.block ? [''] : []),
    `log:${String(e.line).padEnd(width)}  ${cut(e.text, MD_MAX_LINE_CHARS)}`,
  ]);
  const step = d.failingStep ? ` from step ${inlineCode(cut(d.failingStep.name, 200))}` : '';
  const logUrl = safeUrl(opts.logUrl);
  const head = `**Log${step}**${logUrl ? ` ([full log](${logUrl}))` : ''}`;
  const notCounted = d.evidence.length - shown.length;
  const render = (kept: string[], cutCount: number): string => {
    const notes: string[] = [];
    if (cutCount > 0) notes.push(`_${cutCount} of ${shown.length} lines cut to fit ${LIMIT_NOTE(max)}; the full log has them._`);
    else if (notCounted > 0) notes.push(`_${notCounted} more evidence lines in the full log._`);
    if (!kept.length) return [head, ...notes].join('\n\n');
    return [head, codeBlock(kept, 'text'), ...notes].join('\n\n');
  };
  return { text: render(lines, 0), shrink: (budget) => shrinkLines(lines, render, budget) };
}

function excerptPart(top: Finding, opts: MarkdownOptions, max: number): Part | undefined {
  const excerpt = sourceExcerpt(opts.source?.(top.file), top.line, top.endLine, opts.context ?? DEFAULT_CONTEXT_LINES);
  if (!excerpt?.length) return undefined;
  const width = String(excerpt[excerpt.length - 1]!.n).length;
  const lines = excerpt.map((l) => `${l.pinned ? '>' : ' '} ${String(l.n).padStart(width)} | ${l.text}`);
  const range = `lines ${excerpt[0]!.n}–${excerpt[excerpt.length - 1]!.n}`;
  const render = (kept: string[], cutCount: number): string => {
    if (!kept.length) return '';
    const note = cutCount ? `\n\n_Excerpt cut to fit ${LIMIT_NOTE(max)}._` : '';
    return [
      `<details><summary>Source: ${htmlCode(cut(top.file, 300))} ${range}</summary>`,
      '',
      codeBlock(kept, langOf(top.file)) + note,
      '',
      '</details>',
    ].join('\n');
  };
  return { text: render(lines, 0), shrink: (budget) => shrinkLines(lines, render, budget) };
}

function othersPart(d: Diagnosis, opts: MarkdownOptions): Part | undefined {
  const others = d.findings.slice(1, 1 + MAX_OTHER_FINDINGS);
  if (!others.length) return undefined;
  const items = others.map(
    (f) => `- ${pinLink(f, opts)} — ${sanitizeProse(cut(f.message, 300))} _(confidence ${f.confidence.toFixed(2)})_`,
  );
  const render = (kept: string[]): string => (kept.length ? ['**Other candidates**', ...kept].join('\n') : '');
  // Whole items only, dropped from the end: half a list item is worse than none.
  const shrink = (budget: number): string => {
    for (let k = items.length - 1; k > 0; k--) {
      const text = render(items.slice(0, k));
      if (text.length <= budget) return text;
    }
    return '';
  };
  return { text: render(items), shrink };
}

/**
 * The PR comment body: hidden fingerprint, the pin, the why in a sentence or two, the log evidence in
 * a fence the log cannot close, the source in a collapsed excerpt, links to the full log. Everything
 * from the log or repo is redacted and sanitized; never longer than `maxChars` (65,536 by default):
 * the longest parts are cut first, and the comment says so.
 */
export function renderMarkdown(d: Diagnosis, opts: MarkdownOptions = {}): string {
  const max = opts.maxChars ?? COMMENT_MAX_CHARS;
  const r = redactDiagnosis(d).diagnosis;
  const top = r.status === 'located' ? r.findings[0] : undefined;
  const parts: Part[] = [];

  const fp = opts.fingerprint?.replace(/[^A-Za-z0-9._:=+/-]/g, '').slice(0, 200);
  const heading = top
    ? `### ✖ Redline: ${categoryLabel(r.category)} at ${pinLink(top, opts)}${top.symbol ? ` in ${inlineCode(cut(top.symbol, 120))}` : ''}`
    : `### ✖ Redline: no location — ${categoryLabel(r.category)}`;
  parts.push({ text: fp ? `<!-- redline:fp=${fp} -->\n${heading}` : heading });

  if (top) {
    const why = ` _(${CAUSE_TEXT[top.cause]}; confidence ${top.confidence.toFixed(2)})_`;
    parts.push(prosePart((t) => `**Why:** ${sanitizeProse(t)}${why}`, top.message, max));
  }
  if (r.summary) parts.push(prosePart((t) => sanitizeProse(t), r.summary, max));
  if (r.history) parts.push({ text: historyMarkdown(r.history) });
  const evidence = evidencePart(r, opts, max);
  if (evidence) parts.push(evidence);
  const excerpt = top ? excerptPart(top, opts, max) : undefined;
  if (excerpt) parts.push(excerpt);
  const others = top ? othersPart(r, opts) : undefined;
  if (others) parts.push(others);

  const links = [
    safeUrl(opts.logUrl) ? `[Full log](${safeUrl(opts.logUrl)})` : '',
    safeUrl(opts.artifactsUrl) ? `[Artifacts](${safeUrl(opts.artifactsUrl)})` : '',
  ].filter(Boolean);
  const feedback = opts.feedback ? ` · ${sanitizeProse(cut(opts.feedback, 120))}` : '';
  parts.push({ text: `<sub>${links.length ? `${links.join(' · ')} · ` : ''}Redline${feedback}</sub>` });

  const body = `${fitParts(parts, max - 1)}\n`;
  if (body.length <= max) return body;
  // Unreachable with the bounds above (the fixed parts are a few hundred characters); kept as a guarantee.
  const note = `\n\n_(cut to fit ${LIMIT_NOTE(max)})_\n`;
  return body.slice(0, max - note.length) + note;
}
