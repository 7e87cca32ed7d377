import type { Category, LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

// Unanchored: docker-compose (`test_1  | `), TAP (`# `) and workspace runners put prefixes before these.
const NPM = /(?:^|[\s|>:#])npm (?:ERR!|error)(?: (.*))?$/;
const NPM_CODE = /^code (\S+)$/;
// The cause is the network or the registry, not the package: the right answer is "retry", not a pin.
const NETWORK_CODE =
  /^(?:ENOTFOUND|ETIMEDOUT|ECONNRESET|ECONNREFUSED|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|ERR_SOCKET_TIMEOUT|E5\d\d)$/;
const NPM_404 = /^404 Not Found - GET (\S+)/;
const NO_VERSION = /No matching version found for (@?[^@\s]+)@/;
const NPM_ROOT_DEP = /^\s*(?:dev |peer |optional |peerOptional )?(@?[^@\s"]+)@"[^"]*" from the root project/;
const NPM_PEER_FROM = /^peer \S+ from (@?[^@\s]+)@/;
const NPM_LOCK = /^(?:Missing: (@?[^@\s]+)@\S* from lock file|Invalid: lock file's (@?[^@\s]+)@)/;
const NPM_REQUEST = /request to (\S+) failed/;
const PNPM = /^\s*ERR_PNPM_([A-Z0-9_]+)\s+(.*)$/;
const PNPM_DEPENDENCY = /^(?:FETCH_404|NO_MATCHING_VERSION|OUTDATED_LOCKFILE|PEER_DEP_ISSUES)$/;
const PNPM_NETWORK = /^(?:META_FETCH_FAIL|FETCH_5\d\d)$|E(?:NOTFOUND|TIMEDOUT|CONNRESET|CONNREFUSED|AI_AGAIN)/;
const GET_URL = /GET (https?:\/\/[^\s:]+(?::\d+)?[^\s:]*)/;
const PNPM_SPECS = /specifiers in the lockfile \((\{[^)]*\})\) don't match specs in package\.json \((\{[^)]*\})\)/;
const PIP_NO_DIST = /No matching distribution found for (\S+)/;
const PIP_NO_VERSION = /Could not find a version that satisfies the requirement /;
const PIP_NETWORK = /Retrying \(Retry\(|NewConnectionError|Max retries exceeded|Temporary failure in name resolution/;
const NODE_MODULE = /Cannot find (?:module|package) '([^']+)'/;
const REQUIRE_FROM = /^\W*- (\/\S+|[A-Za-z]:\\\S+)$/;
const CARGO_GET = /^error: failed to get `([^`]+)` as a dependency/;
const CARGO_NETWORK = /Could not resolve host|spurious network error|failed to download|timed out|SSL connect error/;
const GO_LOCATED = /^(\S+?\.go):(\d+):(\d+): (.*)$/;
/**
 * npm's closing line of an install that went through: `added 544 packages, removed 1 package, and audited 546
 * packages in 19s`, `up to date, audited 12 packages in 1s`. Printed after an npm failure in the same step,
 * it says the step retried (`npm ci || npm install --legacy-peer-deps`) and survived that failure.
 */
const NPM_INSTALLED = /(?:^|[\s|>:#])(?:(?:added|removed|changed) \d+ packages?\b.* in \d|up to date, audited \d+ packages? in \d)/;
/** The weight of an npm failure the step went on past: context for a reader, below what a block is made of. */
const SURVIVED_WEIGHT = 0.3;
const GO_PACKAGE = /(?:no required module provides|missing go\.sum entry for module providing) package ([^\s;:]+)/;

/** Failures one line says in full; group 1, when there, is the package. `once`: repeated per importing file. */
const LINE_RULES: readonly { tool: string; re: RegExp; once?: boolean }[] = [
  { tool: 'yarn', re: /^error Couldn't find (?:package|any versions for) "([^"]+)"/ },
  { tool: 'yarn', re: /^error Your lockfile needs to be updated, but yarn was run with `--frozen-lockfile`/ },
  { tool: 'python', re: /ModuleNotFoundError: No module named '([^']+)'/, once: true },
  // Python 2 (and 3 before 3.6) said the same with ImportError, the name unquoted in Python 2.
  { tool: 'python', re: /^ImportError: No module named '?([\w.]+)'?\s*$/, once: true },
  { tool: 'cargo', re: /^error: no matching package named `([^`]+)` found/ },
  { tool: 'cargo', re: /^error: failed to select a version for (?:the requirement )?`([A-Za-z0-9_-]+)/ },
];

/** `https://registry.npmjs.org/@scope%2fname` (or its tarball URL) → `@scope/name`. */
function packageFromUrl(url: string | undefined): string | undefined {
  try {
    const path = decodeURIComponent(new URL(url ?? '').pathname).slice(1);
    return path.split('/-/')[0]!.replace(/\/+$/, '') || undefined;
  } catch {
    return undefined;
  }
}

/** The packages whose specifier pnpm's lockfile and package.json disagree on. */
function specsDiffer(text: string): string | undefined {
  const m = PNPM_SPECS.exec(text);
  try {
    const [lock, manifest] = [JSON.parse(m?.[1] ?? '{}'), JSON.parse(m?.[2] ?? '{}')] as Record<string, string>[];
    return Object.keys({ ...lock, ...manifest }).filter((k) => lock![k] !== manifest![k]).join(' ') || undefined;
  } catch {
    return undefined;
  }
}

type Said = { n: number; rest: string };

/** npm's advice under a network error (`If you are behind a proxy, please make sure that the 'proxy' config is set properly.`). */
const NPM_NETWORK_ADVICE = /^(?:network )?(?:If you are behind a proxy|In most cases you are behind a proxy)/;

/** Reads one contiguous `npm error` block (npm prints one per failed command) into at most one signal. */
function npmBlock(block: Said[]): Signal | null {
  const codeAt = block.findIndex((b) => NPM_CODE.test(b.rest));
  if (codeAt < 0) return null;
  const code = NPM_CODE.exec(block[codeAt]!.rest)![1]!;
  const find = (re: RegExp, from = 0) => block.slice(from).find((b) => re.test(b.rest));
  let detail: Said | undefined;
  let symbol: string | undefined;
  const related: number[] = [];
  if (code === 'E404') {
    detail = find(NPM_404);
    symbol = packageFromUrl(detail && NPM_404.exec(detail.rest)![1]);
  } else if (code === 'ETARGET') {
    detail = find(NO_VERSION);
    symbol = detail && NO_VERSION.exec(detail.rest)![1];
  } else if (code === 'ERESOLVE') {
    // The conflict is in the part after "Could not resolve dependency:"; "Found:" above it is the innocent side.
    const at = block.findIndex((b) => b.rest.startsWith('Could not resolve dependency'));
    const peer = at >= 0 ? find(NPM_PEER_FROM, at) : undefined;
    const root = at >= 0 ? find(NPM_ROOT_DEP, at) : undefined;
    detail = block[1];
    symbol = root ? NPM_ROOT_DEP.exec(root.rest)![1] : peer && NPM_PEER_FROM.exec(peer.rest)![1];
    for (const b of [peer, root]) if (b) related.push(b.n);
  } else if (code === 'EUSAGE') {
    // EUSAGE is any misuse; only the `npm ci` lockfile check names a dependency.
    detail = find(NPM_LOCK);
    if (!detail) return null;
    const m = NPM_LOCK.exec(detail.rest)!;
    symbol = m[1] ?? m[2];
  } else if (NETWORK_CODE.test(code)) {
    const said = (b: Said, i: number) => i > codeAt && b.rest !== '' && !/^(?:errno|syscall) /.test(b.rest);
    detail = find(NPM_REQUEST) ?? block.find(said);
    symbol = packageFromUrl(detail && NPM_REQUEST.exec(detail.rest)?.[1]);
    // npm's own advice printed after the dumped error object is what a person quotes with the request.
    const advice = find(NPM_NETWORK_ADVICE, codeAt + 1);
    if (advice) related.push(advice.n);
  } else {
    return null;
  }
  if (detail && detail !== block[codeAt]) related.unshift(detail.n);
  const category: Category = NETWORK_CODE.test(code) ? 'infra' : 'dependency';
  const message = `${code}: ${(detail ?? block[codeAt]!).rest}`;
  const s = signal('npm', message, category, block[codeAt]!.n, symbol, related);
  // Under a network error's `FetchError: request to … failed` npm dumps the error object: its stack through
  // minipass-fetch and node's http client, then `{ code: 'ECONNREFUSED', errno: …, port: 9 }`. The block a
  // person quotes ends at the request that failed.
  if (NETWORK_CODE.test(code) && detail && detail.n > block[codeAt]!.n) s.blockEnd = detail.n;
  return s;
}

/** A category-only signal: no line to pin, but the package name for the locator to find in the manifest. */
function signal(
  tool: string,
  message: string,
  category: Category,
  logLine: number,
  symbol?: string,
  related: number[] = [],
): Signal {
  const extra = { ...(symbol ? { symbol } : {}), ...(related.length ? { related } : {}) };
  return { kind: 'diagnostic', message, tool, severity: 'error', category, weight: 0.8, logLine, ...extra };
}

/** Reads npm, pnpm, yarn, pip, cargo and Go module failures and "module not found" into dependency or infra signals. */
export const packageManagerMatcher: Matcher = {
  id: 'package-manager',
  extract(lines: readonly LogLine[]): Signal[] {
    const signals: Signal[] = [];
    // The same missing module is reported once per test file that imports it: one signal, the rest as related.
    const seen = new Map<string, Signal>();
    const once = (key: string, s: Signal) => {
      const prev = seen.get(key);
      if (!prev) return void (seen.set(key, s), signals.push(s));
      if ((prev.related ??= []).length < 20) prev.related.push(s.logLine);
    };
    let pipNetwork = false;
    for (let i = 0; i < lines.length; i++) {
      const { n, text } = lines[i]!;
      const npm = text.includes('npm ') ? NPM.exec(text) : null;
      if (npm) {
        const block = [{ n, rest: (npm[1] ?? '').trim() }];
        for (let m; i + 1 < lines.length && (m = NPM.exec(lines[i + 1]!.text)); i++) {
          block.push({ n: lines[i + 1]!.n, rest: (m[1] ?? '').trim() });
        }
        const s = npmBlock(block);
        if (s) signals.push(s);
        continue;
      }
      if (NPM_INSTALLED.test(text)) {
        // The install went through after all: the npm failures printed before it were survived.
        for (const s of signals) if (s.tool === 'npm' && s.logLine < n && s.weight > SURVIVED_WEIGHT) Object.assign(s, { weight: SURVIVED_WEIGHT, severity: 'warning' as const });
        continue;
      }
      if (PIP_NETWORK.test(text)) pipNetwork = true;
      const rule = LINE_RULES.find((r) => r.re.test(text));
      let m: RegExpExecArray | null;
      if (rule) {
        const hit = rule.re.exec(text)!;
        const s = signal(rule.tool, text.slice(hit.index).replace(/^error:? /, ''), 'dependency', n, hit[1]);
        if (rule.once) once(`${rule.tool}:${hit[1]}`, s);
        else signals.push(s);
      } else if ((m = PNPM.exec(text))) {
        const [, code, rest] = m as unknown as [string, string, string];
        const network = PNPM_NETWORK.test(code + rest);
        if (!network && !PNPM_DEPENDENCY.test(code)) continue;
        // pnpm says why a frozen install failed a few lines down ("Failure reason:").
        const reason = code === 'OUTDATED_LOCKFILE' ? lines.slice(i + 1, i + 10).find((l) => PNPM_SPECS.test(l.text)) : null;
        const named = NO_VERSION.exec(rest)?.[1] ?? packageFromUrl(GET_URL.exec(rest)?.[1]);
        const symbol = reason ? specsDiffer(reason.text) : named;
        const category = network ? 'infra' : 'dependency';
        signals.push(signal('pnpm', `ERR_PNPM_${code}: ${rest}`, category, n, symbol, reason ? [reason.n] : []));
      } else if ((m = PIP_NO_DIST.exec(text))) {
        const prev = i > 0 && PIP_NO_VERSION.test(lines[i - 1]!.text) ? [lines[i - 1]!.n] : [];
        const symbol = m[1]!.split(/[<>=!~;[(,]/)[0]!;
        signals.push(signal('pip', text.replace(/^ERROR: /, ''), pipNetwork ? 'infra' : 'dependency', n, symbol, prev));
      } else if ((m = NODE_MODULE.exec(text)) && !/TS\d{4}/.test(text)) {
        const spec = m[1]!;
        // A relative or absolute specifier is a wrong path in the code, not a missing package.
        if (spec.startsWith('.') || spec.startsWith('/') || /^[A-Za-z]:\\/.test(spec)) continue;
        // Node names the file that did the require first in its "Require stack": the file, not the line.
        const hasStack = lines[i + 1]?.text.includes('Require stack:');
        const stack = hasStack ? REQUIRE_FROM.exec(lines[i + 2]?.text ?? '') : null;
        const s = signal('node', text.slice(m.index), 'dependency', n, spec);
        once(`node:${spec}`, stack ? { path: stack[1]!, ...s } : s);
      } else if ((m = CARGO_GET.exec(text))) {
        // "failed to get" wraps any fetch failure: its "Caused by:" chain says whether it was the network.
        const network = lines.slice(i + 1, i + 16).some((l) => CARGO_NETWORK.test(l.text));
        signals.push(signal('cargo', text.replace(/^error: /, ''), network ? 'infra' : 'dependency', n, m[1]));
      } else if ((m = GO_PACKAGE.exec(text))) {
        const at = GO_LOCATED.exec(text);
        // `go run x` without a go.mod says it with no location: still a dependency, just nothing to pin.
        if (!at) signals.push(signal('go', text, 'dependency', n, m[1]));
        else {
          const where = { path: at[1]!, line: Number(at[2]), column: Number(at[3]) };
          signals.push({ ...signal('go', at[4]!, 'dependency', n, m[1]), ...where, weight: 1.0 });
        }
      }
    }
    return signals;
  },
};
