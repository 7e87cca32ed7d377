import type { LogLine, Signal } from '../types.js';

/**
 * High-entropy identifiers: the fallback evidence when no matcher knows the tool. A name like
 * `parseHeaderV2` or `user_account_id` is rare in a log and rarer in a repo, so it points somewhere;
 * `error`, `npm`, `Process` point nowhere. Scores: shape (mixed case, separators, digits), rarity in the
 * log, and nearness to the end of the failure. Rarity in the repo is added by the locator (ripgrep counts).
 */

const TOKEN = /[A-Za-z_$][\w$]*(?:[.:][A-Za-z_$][\w$]*)*/g;
const QUOTED = /[`'"‘“]([A-Za-z_$][\w$.:/-]{2,80})[`'"’”]/g;
const ERROR_CODE = /\b(?:[A-Z]{1,4}\d{3,5}|E\d{4})\b/g;

/** Words and runner noise that carry no location, even when they look like identifiers. */
const STOP = new Set(
  (
    'error errors warning warnings failed failure fail failing true false null undefined none nil self this ' +
    'process completed exit code run runs running npm yarn pnpm node npx make cargo go python pytest java ' +
    'gradle maven mvn test tests testing expected received actual assert assertion assertionerror typeerror ' +
    'referenceerror syntaxerror exception traceback function object string number boolean array module ' +
    'line column file files path from import export return const let var def class new async await ' +
    'info debug trace stack stdout stderr github actions runner ubuntu latest home work workspace' +
    ' cleaning orphan processes post job cleanup endgroup group shell bash usr bin env'
  ).split(' '),
);

export interface Identifier {
  token: string;
  score: number;
  logLine: number;
}

/** Shape score: how much a token looks like a name a programmer chose. 0 means "not an identifier". */
export function shapeScore(token: string): number {
  if (token.length < 4 || token.length > 80) return 0;
  const lower = token.toLowerCase();
  if (STOP.has(lower)) return 0;
  let s = 0;
  if (/[a-z][A-Z]/.test(token)) s += 0.45; // camelCase
  if (/[a-z0-9]_[a-z0-9]/i.test(token)) s += 0.4; // snake_case
  if (/[.:][A-Za-z_]/.test(token)) s += 0.25; // dotted / qualified
  if (/\d/.test(token) && /[A-Za-z]/.test(token)) s += 0.15;
  if (/^[A-Z][a-z]+[A-Z]/.test(token)) s += 0.1; // PascalCase type names
  if (s === 0 && /^[a-z]+$/.test(token)) return 0; // plain words
  return Math.min(1, s + Math.min(0.2, token.length / 100));
}

/**
 * Extracts identifier signals from the lines that matter (the failure's neighbourhood), best first,
 * at most `max`. Later lines weigh more: the cause is printed last more often than first.
 */
export function extractIdentifiers(lines: readonly LogLine[], max = 30): Signal[] {
  const seen = new Map<string, Identifier & { count: number }>();
  const last = lines.length ? lines[lines.length - 1]!.n : 0;
  const first = lines.length ? lines[0]!.n : 0;
  const span = Math.max(1, last - first);
  for (const l of lines) {
    const text = l.text;
    if (text.length > 2000 || text.startsWith('##[group]') || text.startsWith('shell:')) continue;
    const found: string[] = [];
    for (const m of text.matchAll(QUOTED)) found.push(m[1]!);
    for (const m of text.matchAll(TOKEN)) found.push(m[0]);
    for (const m of text.matchAll(ERROR_CODE)) found.push(m[0]);
    for (const tok of found) {
      const t = tok.replace(/[.:]+$/, '');
      const prev = seen.get(t);
      if (prev) {
        prev.count++;
        prev.logLine = l.n;
        continue;
      }
      const shape = /^(?:[A-Z]{1,4}\d{3,5}|E\d{4})$/.test(t) ? 0.5 : shapeScore(t);
      if (shape === 0) continue;
      seen.set(t, { token: t, score: shape, logLine: l.n, count: 1 });
    }
  }
  const out: Signal[] = [];
  for (const id of seen.values()) {
    // Rare in the log, close to the end: likely the thing that broke.
    const rarity = 1 / Math.sqrt(id.count);
    const nearness = 0.5 + 0.5 * ((id.logLine - first) / span);
    const weight = id.score * rarity * nearness * 0.4;
    out.push({ kind: 'identifier', symbol: id.token, message: id.token, weight, logLine: id.logLine, tool: 'identifiers' });
  }
  return out.sort((a, b) => b.weight - a.weight).slice(0, max);
}
