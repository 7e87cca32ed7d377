import type { Category, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

/**
 * GitHub's annotation syntax, `::error file=src/a.ts,line=12,col=5,title=TS2345::Argument of type …`:
 * what problem matchers and many linters print in Actions, and the form the App gives another CI's
 * check-run annotations (src/github/check-run-log.ts). A tool that names file and line this way has
 * already located the failure: the signal is as strong as a compiler's own diagnostic.
 */
const COMMAND = /^::(error|warning|notice)(?: ([^:]*))?::(.*)$/;
const MAX_LINE = 8000;

/** Undoes the workflow-command escaping (`%25` `%0D` `%0A` everywhere, `%3A` `%2C` in properties). */
export function unescapeCommand(s: string, property = false): string {
  let out = s.replace(/%0D/gi, '\r').replace(/%0A/gi, '\n');
  if (property) out = out.replace(/%3A/gi, ':').replace(/%2C/gi, ',');
  return out.replace(/%25/g, '%');
}

/** Escapes text for a workflow command's message (`property`: for a `k=v` value). */
export function escapeCommand(s: string, property = false): string {
  let out = s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  if (property) out = out.replace(/:/g, '%3A').replace(/,/g, '%2C');
  return out;
}

function properties(raw: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (raw ?? '').split(',')) {
    const eq = part.indexOf('=');
    if (eq > 0) out.set(part.slice(0, eq).trim(), unescapeCommand(part.slice(eq + 1), true));
  }
  return out;
}

/** What the words of an annotation say about the kind of failure (a title is often the rule or code). */
function categoryOf(title: string, message: string): Category | undefined {
  const t = `${title} ${message}`;
  if (/\bTS\d{4}\b|\bE\d{4}\b|\bCS\d{4}\b|cannot find symbol|not assignable|undefined reference|syntax error|compil/i.test(t)) return 'compile';
  if (/\b(?:eslint|lint|rubocop|flake8|pylint|ruff|stylelint|prettier|checkstyle|clippy|golangci|shellcheck|ktlint)\b|^@?[\w-]+\/[\w-]+$|^[A-Z]{1,3}\d{3,4}$/i.test(title) || /\blint/i.test(message)) return 'lint';
  if (/\b(?:test|spec|assert\w*|expect(?:ed)?)\b/i.test(t)) return 'test';
  return undefined;
}

export const workflowCommandsMatcher: Matcher = {
  id: 'annotation',
  extract(lines) {
    const out: Signal[] = [];
    for (const l of lines) {
      const t = l.text.trimStart();
      if (!t.startsWith('::') || t.length > MAX_LINE) continue;
      const m = COMMAND.exec(t);
      if (!m) continue;
      const props = properties(m[2]);
      const path = props.get('file')?.trim().replace(/^\.\//, '');
      const message = unescapeCommand(m[3] ?? '').split('\n')[0]!.trim().slice(0, 500);
      if (!message && !path) continue;
      const title = props.get('title')?.trim() ?? '';
      const severity = m[1] === 'error' ? 'error' : 'warning';
      const line = Number(props.get('line'));
      const endLine = Number(props.get('endLine') ?? props.get('end_line'));
      const column = Number(props.get('col'));
      const category = severity === 'error' ? categoryOf(title, message) : undefined;
      const hasLine = Number.isInteger(line) && line > 0;
      // A test runner's own annotation (vitest, jest reporters) restates a failing test: it is the
      // assertion, not a compiler's verdict, and the change that broke it still has to be found.
      const isTest = category === 'test';
      out.push({
        kind: isTest ? 'test' : 'diagnostic',
        ...(isTest && title ? { symbol: title } : {}),
        ...(path ? { path } : {}),
        ...(path && hasLine ? { line } : {}),
        ...(path && hasLine && Number.isInteger(column) && column > 0 ? { column } : {}),
        ...(path && hasLine && Number.isInteger(endLine) && endLine > line ? { endLine } : {}),
        message: title && !message.includes(title) ? `${title}: ${message}` : message || title,
        tool: 'annotation',
        severity,
        ...(category ? { category } : {}),
        // Located errors are as strong as a compiler's; a notice or warning is context.
        weight: severity === 'error' ? (isTest ? 0.9 : path && hasLine ? 1.0 : 0.6) : 0.3,
        logLine: l.n,
      });
    }
    return out;
  },
};
