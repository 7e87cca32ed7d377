import type Anthropic from '@anthropic-ai/sdk';
import type { Diagnosis, Finding } from '../../types.js';
import type { Workspace } from '../../repo/workspace.js';
import type { PrDiff } from '../../repo/diff.js';
import type { FileTags } from '../../repo/map/types.js';
import { buildRepoMap } from '../../repo/map/repo-map.js';
import { countTokens } from '../../repo/map/tokens.js';
import { redactSecretsDeep } from '../../safety/redact.js';
import { loadDescription } from '../tools/tool.js';
import { cutLine } from '../tools/truncate.js';
import { AGENT_HUNK_LINES, AGENT_LINE_CHARS, AGENT_MAP_TOKENS, AGENT_MAX_HUNKS, AGENT_SNIPPET_AFTER, AGENT_SNIPPET_BEFORE, TOKEN_MARGIN } from './bounds.js';

export const SYSTEM_PROMPT = loadDescription(new URL('./system.txt', import.meta.url));
const EPHEMERAL = { type: 'ephemeral' } as const;

export interface FirstTurn {
  /** System prompt, then the repo map: both end in a cache breakpoint (the stable prefix with the tools). */
  system: Anthropic.TextBlockParam[];
  user: string;
  /** What each piece cost (cl100k tokens) and the total the request is estimated at. */
  tokens: { system: number; tools: number; map: number; user: number; total: number };
  /** Parts left out to stay within the budget, for the record. */
  dropped: string[];
  /** True when even the header does not fit: the request is not sent. */
  overBudget: boolean;
}

interface Part {
  label: string;
  text: string;
}

const line = (s: string) => cutLine(s.replace(/\t/g, '  '), AGENT_LINE_CHARS);

function findingPart(f: Finding, i: number, ws: Workspace): Part {
  const src = ws.lines(f.file);
  const from = Math.max(1, f.line - AGENT_SNIPPET_BEFORE);
  const to = Math.min(src?.length ?? 0, (f.endLine ?? f.line) + AGENT_SNIPPET_AFTER);
  const snippet = src ? src.slice(from - 1, to).map((t, k) => `${from + k === f.line ? '>' : ' '}${String(from + k).padStart(5)}| ${line(t)}`).join('\n') : '(source not readable)';
  const head = `Finding ${i + 1}: ${f.file}:${f.line}${f.symbol ? ` in ${f.symbol}` : ''} (${f.cause}, confidence ${f.confidence})\n${line(f.message)}`;
  return { label: `finding ${i + 1} (${f.file}:${f.line})`, text: `${head}\n<source file="${f.file}">\n${snippet}\n</source>` };
}

function hunkParts(diff: PrDiff | undefined, findings: readonly Finding[]): Part[] {
  if (!diff) return [];
  // Files that hold a finding first: their hunks are the likeliest cause.
  const hot = new Set(findings.map((f) => f.file));
  const files = [...diff.files].sort((a, b) => Number(hot.has(b.file)) - Number(hot.has(a.file)));
  let hunks = 0;
  const parts: Part[] = [];
  for (const f of files) {
    const body: string[] = [];
    for (const h of f.hunks) {
      if (hunks++ >= AGENT_MAX_HUNKS) break;
      body.push(`@@ lines ${h.start}-${h.end}`, ...h.removed.slice(0, AGENT_HUNK_LINES).map((t) => `-      ${line(t)}`));
      body.push(...h.added.slice(0, AGENT_HUNK_LINES).map((a) => `+${String(a.n).padStart(5)}| ${line(a.text)}`));
      if (h.added.length > AGENT_HUNK_LINES || h.removed.length > AGENT_HUNK_LINES) body.push('  … (hunk cut; read the file for the rest)');
    }
    if (body.length) parts.push({ label: `changes to ${f.file}`, text: `<diff file="${f.file}">\n${body.join('\n')}\n</diff>` });
  }
  return parts;
}

/**
 * The first request, dense and bounded: header, evidence lines, deterministic findings with snippets,
 * the PR's hunks, then the repo map, in that rank order. Every part is redacted, then counted with
 * countTokens; parts that do not fit `budget` (less a margin, less the system prompt and the tools)
 * are dropped, lowest rank first, and the message says which.
 */
export async function buildFirstTurn(o: { diagnosis: Diagnosis; ws: Workspace; diff?: PrDiff; tags: ReadonlyMap<string, FileTags>; tools: Anthropic.Tool[]; budget: number }): Promise<FirstTurn> {
  const d = o.diagnosis;
  const sys = countTokens(SYSTEM_PROMPT);
  const tools = countTokens(JSON.stringify(o.tools));
  const NOTE_RESERVE = 120;
  let room = Math.floor(o.budget * (1 - TOKEN_MARGIN)) - sys - tools - NOTE_RESERVE;

  const header: Part = {
    label: 'header',
    text:
      `A CI job failed. Category: ${d.category}. Failing step: ${d.failingStep ? `"${line(d.failingStep.name)}" (log lines ${d.failingStep.startLine}-${d.failingStep.endLine})` : 'unknown'}.\n` +
      `Redline's deterministic pass: ${line(d.summary)}\nFind the line that caused the failure and call report.`,
  };
  const evidence: Part = { label: 'evidence lines', text: `Evidence from the log:\n<log>\n${d.evidence.map((e) => `${String(e.line).padStart(7)}: ${line(e.text)}`).join('\n')}\n</log>` };
  const parts = [header, evidence, ...d.findings.map((f, i) => findingPart(f, i, o.ws)), ...hunkParts(o.diff, d.findings)];

  const kept: string[] = [];
  const dropped: string[] = [];
  for (const p of parts) {
    const text = (await redactSecretsDeep(p.text)).text;
    const t = countTokens(text) + 2;
    if (t <= room) {
      kept.push(text);
      room -= t;
    } else dropped.push(p.label);
  }
  // The map is rendered to fit what is left (never more than AGENT_MAP_TOKENS); it is built without
  // focus so that it is the same text for every diagnosis of this commit (a cache hit next time).
  const mapBudget = Math.min(AGENT_MAP_TOKENS, room);
  const map = mapBudget >= 150 && o.tags.size ? await buildRepoMap(o.tags, { tokens: mapBudget }) : undefined;
  const mapText = map?.text ? (await redactSecretsDeep(`Repository map (definitions by file, best-connected first):\n${map.text}`)).text : '';
  if (!mapText) dropped.push('the repository map');
  if (dropped.length) kept.push(`(Left out to stay within the first-turn budget: ${dropped.slice(0, 8).join('; ')}${dropped.length > 8 ? `; and ${dropped.length - 8} more` : ''}. Use the tools to look at them.)`);
  const user = kept.join('\n\n');

  const system: Anthropic.TextBlockParam[] = [{ type: 'text', text: SYSTEM_PROMPT, cache_control: EPHEMERAL }];
  if (mapText) system.push({ type: 'text', text: mapText, cache_control: EPHEMERAL });
  const mapTokens = mapText ? countTokens(mapText) : 0;
  const userTokens = countTokens(user);
  return { system, user, dropped, overBudget: dropped.includes('header'), tokens: { system: sys, tools, map: mapTokens, user: userTokens, total: sys + tools + mapTokens + userTokens } };
}
