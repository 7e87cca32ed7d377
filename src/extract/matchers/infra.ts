import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

/** One kind of failure that is the machine's, the network's or the runner's, never a line of the repo's. */
interface InfraRule {
  /** Signals of one kind are merged: a full disk fails every write, and one pin-less signal says it. */
  kind: string;
  test: RegExp;
  /** A cheap substring that every match contains, so most lines cost one `includes`. */
  hint: string;
  /** The line a person quotes for it, when that is not the matching line itself (lines[i] matched). */
  anchor?: (lines: readonly LogLine[], i: number) => number;
}

/** How far above a `Require stack:` item node's `Error: Cannot find module …` header may be. */
const REQUIRE_STACK_LOOKBACK = 3;
/** node's `Error: Cannot find module 'x'` / `Require stack:` above the stack's first item, when it is there. */
function requireStackHeader(lines: readonly LogLine[], i: number): number {
  for (let j = i - 1; j >= 0 && j >= i - REQUIRE_STACK_LOOKBACK; j--) {
    if (lines[j]!.text.trim() !== 'Require stack:') continue;
    const head = lines[j - 1];
    return head && /Cannot find module /.test(head.text) ? head.n : lines[j]!.n;
  }
  return lines[i]!.n;
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
    // apt, and Maven / Gradle resolving a host (java.net.UnknownHostException says `Unknown host x`;
    // Bazel's downloader `Unknown host: x`).
    "Temporary failure resolving '",
    String.raw`\bUnknown host:? [\w.-]+\.[a-z]{2,}\b`,
    // A proxy that refused the connection: Go's GOPROXY fetch, pip, apt, npm behind a proxy.
    'proxyconnect tcp:',
    'Could not connect to proxy',
    String.raw`ProxyError\(`,
    'tunneling socket could not be established',
    // A download that stalled: Maven / Gradle, pip, curl.
    'Read timed out',
    'ReadTimeoutError',
    String.raw`Operation timed out after \d+ milliseconds`,
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
  // Travis, GitLab, Azure, CircleCI and Jenkins ending a job that ran or sat silent too long.
  { kind: 'timeout', hint: 'maximum time limit', test: /^The job exceeded the maximum time limit for jobs, and has been terminated\.$/ },
  { kind: 'timeout', hint: 'No output has been received', test: /^No output has been received in the last [^,]+, this potentially indicates a stalled build/ },
  { kind: 'timeout', hint: 'execution took longer than', test: /^ERROR: Job failed: execution took longer than / },
  { kind: 'timeout', hint: 'ran longer than the maximum time', test: /ran longer than the maximum time of \d+ minutes/ },
  { kind: 'timeout', hint: 'Too long with no output', test: /^Too long with no output \(exceeded [^)]+\)/ },
  { kind: 'timeout', hint: 'due to timeout', test: /^Cancelling nested steps due to timeout$/ },
  // The JVM that could not even start (too little memory) is read by jvm-crash.ts, with its whole banner.
  // Exit 137 is SIGKILL (the OOM killer, a hard timeout), as Travis and GitLab report it.
  { kind: 'killed', hint: 'exited with 137', test: /^The command ".*" exited with 137\.$/ },
  { kind: 'killed', hint: 'exit code 137', test: /^ERROR: Job failed: exit code 137$/ },
  // The runner, not the job: GitLab's system failure, Jenkins' agent gone.
  { kind: 'runner-lost', hint: 'system failure', test: /^ERROR: Job failed \(system failure\)/ },
  { kind: 'runner-lost', hint: 'went offline', test: /^Agent went offline during the build$/ },
  { kind: 'shutdown', hint: 'shutdown signal', test: /The runner has received a shutdown signal/ },
  { kind: 'canceled', hint: 'was canceled', test: /^(?:##\[error\])?The operation was canceled\.$/ },
  { kind: 'runner-lost', hint: 'lost communication', test: /lost communication with the server/ },
  { kind: 'disk-full', hint: 'o space left on device', test: /[Nn]o space left on device/ },
  { kind: 'disk-full', hint: 'ENOSPC', test: /\bENOSPC\b/ },
  { kind: 'network', hint: '', test: NETWORK },
  { kind: 'server-error', hint: '://', test: SERVER_ERROR },
  { kind: 'rate-limit', hint: 'toomanyrequests', test: /toomanyrequests: .*(?:pull rate limit|rate limit)/ },
  // The machine's own package manager could not set up system packages (a post-install script that needs a
  // service the CI container does not run): apt's last word on it.
  { kind: 'system-packages', hint: 'E: Sub-process', test: /^E: Sub-process \/usr\/bin\/dpkg returned an error code \(\d+\)$/ },
  // `curl … | apt-key add -` (or `gpg --import`) fed something that is no key: the key's host answered with
  // nothing or with a page (moved, down). The job's own setup never got past fetching it.
  { kind: 'download', hint: 'no valid OpenPGP data', test: /^gpg: no valid OpenPGP data found\.$/ },
  // The CI image no longer carries the toolchain the job asks for (Travis' `jdk_switcher use oraclejdk6`).
  { kind: 'runner-toolchain', hint: 'is no longer supported', test: /^(?:Sun\/Oracle |Open)?JDK ?\d+ is EOL since [^,]+, and is no longer supported\b/ },
  // A tool that lives in the CI agent's own tool folder (TeamCity's `/opt/buildagent/tools`, the hosted
  // runners' tool cache) failed to load its own files: node's `Require stack:` names only the agent's copy
  // (a broken symlink, a half-unpacked download), never a file of the project.
  { kind: 'runner-tool', hint: '- ', anchor: requireStackHeader, test: /^\s*- (?:\/opt\/buildagent\/tools|\/opt\/hostedtoolcache|\/home\/runner\/work\/_tool|\/Users\/runner\/hostedtoolcache|[A-Z]:\\hostedtoolcache)[\\/]\S+$/ },
];

// A log line this long is a blob (minified code, base64), not a message from the machine.
const MAX_LINE = 4000;
/**
 * A tool that says it only warns (Maven's `[WARNING] Could not transfer metadata … Name or service not
 * known`, pip's `WARNING: Retrying …`, apt's `W:`, npm's `npm WARN`) carried on past the fault: the
 * signal is kept, as a warning, so it never decides the category on its own.
 */
const WARNING_LINE = /^\s*(?:\[(?:WARNING|WARN)\]|WARNING:|WARN(?:ING)?\b|npm WARN|W: |##\[warning\]|warning:|::warning)/;
const MAX_RELATED = 10;

/** Reads failures that are no line's fault (out of memory, killed, timed out, disk full, network) as category-only signals. */
export const infraMatcher: Matcher = {
  id: 'infra',
  extract(lines: readonly LogLine[]): Signal[] {
    const signals: Signal[] = [];
    const byKind = new Map<string, Signal>();
    for (let i = 0; i < lines.length; i++) {
      const { n, text } = lines[i]!;
      if (text.length > MAX_LINE) continue;
      for (const rule of RULES) {
        if (rule.hint && !text.includes(rule.hint)) continue;
        if (!rule.test.test(text)) continue;
        const severity = WARNING_LINE.test(text) ? 'warning' : 'error';
        // A warning and a later error of one kind stay apart: only the error can decide the category.
        const key = `${rule.kind}:${severity}`;
        const prev = byKind.get(key);
        if (prev) {
          if ((prev.related ??= []).length < MAX_RELATED) prev.related.push(n);
        } else {
          const s: Signal = {
            kind: 'diagnostic',
            message: text.trim(),
            tool: 'infra',
            severity,
            category: 'infra',
            weight: 0.8,
            logLine: rule.anchor ? rule.anchor(lines, i) : n,
          };
          byKind.set(key, s);
          signals.push(s);
        }
        break;
      }
    }
    return signals;
  },
};
