import type { DiagnoseTrace } from '../diagnose.js';
import type { Diagnosis } from '../types.js';
import { pinText } from './explain.js';
import { redactSecrets } from '../safety/redact.js';
import { inlineCode, safeUrl, sanitizeProse } from '../safety/sanitize.js';
import { cut } from './source-excerpt.js';

/** Leads listed at most in an explanation: the few a person can check by eye. */
export const MAX_LEADS = 3;
/** The section never grows past this (so the comment's own budget is known before rendering it). */
export const LEADS_MAX_CHARS = 3_000;

/**
 * `/redline explain`: what Redline looked at when it would not pin a line. The candidates the checks
 * ranked too low to pin are listed as leads, each with its confidence and why it is only a lead, so a
 * person can judge; nothing here is presented as the answer. Empty when the diagnosis is located (the
 * comment already explains its pin) or there is nothing to list.
 */
export function uncertainLeads(d: Diagnosis, trace: Pick<DiagnoseTrace, 'candidates'>, permalink?: (file: string, line: number) => string): string {
  if (d.status === 'located') return '';
  const leads = [...trace.candidates].sort((a, b) => (b.confidence ?? 0) - (a.confidence ?? 0)).slice(0, MAX_LEADS);
  const head = '**You asked for an explanation.** Redline is not sure enough to pin a line';
  if (!leads.length) return `${head}, and no location in the log or the changes checked out; the evidence above is all it has.`;
  const items = leads.map((c) => {
    const code = inlineCode(cut(pinText(c), 300));
    const url = safeUrl(permalink?.(c.file, c.line));
    const pin = url && url.length <= 2000 ? `[${code}](${url})` : code;
    const message = sanitizeProse(cut(redactSecrets(c.message).text, 300));
    return `- ${pin} — ${message} _(confidence ${(c.confidence ?? 0).toFixed(2)}, below what Redline pins)_`;
  });
  const out = [`${head}; these are the leads it weighed, strongest first:`, ...items].join('\n');
  return out.length <= LEADS_MAX_CHARS ? out : `${out.slice(0, LEADS_MAX_CHARS - 2)}…`;
}

/** Puts `section` into a rendered comment just before its `<sub>` footer (or at the end when it has none). */
export function withSection(body: string, section: string): string {
  if (!section) return body;
  const at = body.lastIndexOf('\n<sub>');
  if (at < 0) return `${body.trimEnd()}\n\n${section}\n`;
  return `${body.slice(0, at).trimEnd()}\n\n${section}\n${body.slice(at)}`;
}
