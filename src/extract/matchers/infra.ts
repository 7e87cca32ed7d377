import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

/** One kind of failure that is the machine's, the network's or the runner's, never a line of the repo's. */
interface InfraRule {
  /** Signals of one kind are merged: a full disk fails every write, and one pin-less signal says it. */
  kind: string;
  test: RegExp;
  /** A cheap substring that every match contains, so most lines cost one `includes`. */
  hint: string;
}

// DNS and connection failures, as node, curl, pip, cargo, Go and yarn word them. ECONNREFUSED is left out:
// on its own it is as often a test's own server that did not start as a registry that is down.
const NETWORK = new RegExp(
  [
    String.raw`getaddrinfo (?:ENOTFOUND|EAI_AGAIN)`,
    String.raw`\b(?:ECONNRESET|ETIMEDOUT|EAI_AGAIN)\b`,
    'Could not resolve host',
    "Couldn't resolve host name",
    'Temporary failure in name resolution',
    'Name or service not known',
    String.raw`: no such host\b`,
    'spurious network error',
    'Connection timed out',
    'There appears to be trouble with your network connection',
  ].join('|'),
);
// A registry or mirror answering 5xx: the package exists, the server is down. The rule's hint (a URL on the
// line) keeps a test named "emits status code 500" out.
const SERVER_ERROR = new RegExp(
  [
    String.raw`\b50[0234] (?:Internal Server Error|Bad Gateway|Service Unavailable|Gateway Time-?out)\b`,
    String.raw`status code:? 50[0234]\b`,
    String.raw`HTTP [Ee]rror 50[0234]\b`,
  ].join('|'),
);

// Every pattern is a plain alternation of literals, so each line costs at most a linear scan.
const RULES: readonly InfraRule[] = [
  // V8 says this itself; the process is gone before any test can name a line.
  { kind: 'out-of-memory', hint: 'heap out of memory', test: /FATAL ERROR: .*JavaScript heap out of memory/ },
  // bash reports a child that SIGKILL ended (the kernel's OOM killer, `timeout -s KILL`) as `PID Killed  cmd`.
  { kind: 'killed', hint: 'Killed', test: /^(?:\S+: )?(?:line \d+: )?(?:\d+ )?Killed(?:\s{2,}\S.*)?$/ },
  { kind: 'killed', hint: 'exit code 137', test: /^##\[error\]Process completed with exit code 137\.$/ },
  { kind: 'timeout', hint: 'exit code 124', test: /^##\[error\]Process completed with exit code 124\.$/ },
  { kind: 'timeout', hint: 'timeout: ', test: /^timeout: (?:the monitored command dumped core|sending signal)/ },
  { kind: 'timeout', hint: 'maximum execution time', test: /has exceeded the maximum execution time of/ },
  { kind: 'shutdown', hint: 'shutdown signal', test: /The runner has received a shutdown signal/ },
  { kind: 'canceled', hint: 'was canceled', test: /^(?:##\[error\])?The operation was canceled\.$/ },
  { kind: 'runner-lost', hint: 'lost communication', test: /lost communication with the server/ },
  { kind: 'disk-full', hint: 'o space left on device', test: /[Nn]o space left on device/ },
  { kind: 'disk-full', hint: 'ENOSPC', test: /\bENOSPC\b/ },
  { kind: 'network', hint: '', test: NETWORK },
  { kind: 'server-error', hint: '://', test: SERVER_ERROR },
  { kind: 'rate-limit', hint: 'toomanyrequests', test: /toomanyrequests: .*(?:pull rate limit|rate limit)/ },
];

// A log line this long is a blob (minified code, base64), not a message from the machine.
const MAX_LINE = 4000;
const MAX_RELATED = 10;

/** Reads failures that are no line's fault (out of memory, killed, timed out, disk full, network) as category-only signals. */
export const infraMatcher: Matcher = {
  id: 'infra',
  extract(lines: readonly LogLine[]): Signal[] {
    const signals: Signal[] = [];
    const byKind = new Map<string, Signal>();
    for (const { n, text } of lines) {
      if (text.length > MAX_LINE) continue;
      for (const rule of RULES) {
        if (rule.hint && !text.includes(rule.hint)) continue;
        if (!rule.test.test(text)) continue;
        const prev = byKind.get(rule.kind);
        if (prev) {
          if ((prev.related ??= []).length < MAX_RELATED) prev.related.push(n);
        } else {
          const s: Signal = {
            kind: 'diagnostic',
            message: text.trim(),
            tool: 'infra',
            severity: 'error',
            category: 'infra',
            weight: 0.8,
            logLine: n,
          };
          byKind.set(rule.kind, s);
          signals.push(s);
        }
        break;
      }
    }
    return signals;
  },
};
