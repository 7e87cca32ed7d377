import type { Category, LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';
import { isDotnetLibraryFrame, parseDotnetFrame } from './frames-dotnet.js';

// msbuild: `path/X.cs(12,5): error CS0103: msg [proj.csproj]`; the Actions problem matcher may leave a
// `##[error]` in front. Also `(12,5,12,9)` ranges from Visual Studio builds.
const MSBUILD = /^(?:##\[(?:error|warning)\])?\s*((?:[A-Za-z]:)?[^\s(:][^(]*?)\((\d+),(\d+)(?:,\d+,\d+)?\): (error|warning) ([A-Z]+\d+): (.*?)(?: \[([^\]]+)\])?$/;
// Errors without a source location: `MSBUILD : error MSB1009: …`, `/path/x.csproj : error NU1101: …`.
const UNLOCATED = /^(?:##\[(?:error|warning)\])?\s*(?:\S.*? )?: error ((?:NU|MSB|NETSDK)\d+): (.*?)(?: \[([^\]]+)\])?$/;
// `dotnet test` (VSTest console logger): `  Failed Ns.C.Test [12 ms]`.
const FAILED_TEST = /^\s*Failed ([^\s[]+(?:\(.*\))?) \[[^\]]*\]\s*$/;
const MAX_LINE = 4000;
const NETWORK = /Unable to load the service index|Connection refused|timed out|No such host|SSL connection could not be established/i;

/** Reads `dotnet build`/msbuild diagnostics and `dotnet test` failures (Error Message / Stack Trace blocks). */
export const dotnetMatcher: Matcher = {
  id: 'dotnet',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    // msbuild repeats every diagnostic in the summary after `Build FAILED.`: one signal each.
    const seen = new Map<string, Signal>();
    for (let i = 0; i < lines.length; i++) {
      const l = lines[i]!;
      const text = l.text;
      // Diagnostics are one line of a few hundred characters; longer lines are blobs, not worth a regex.
      if (text.length > MAX_LINE) continue;
      if (text.includes('): error ') || text.includes('): warning ')) {
        const m = MSBUILD.exec(text);
        // tsc prints the same `file(line,col): error TS1234:` shape: only .NET sources and codes are ours.
        if (!m || m[5]!.startsWith('TS') || /\.[cm]?[jt]sx?$/.test(m[1]!)) continue;
        const key = `${m[1]}(${m[2]},${m[3]}) ${m[5]} ${m[6]}`;
        const prior = seen.get(key);
        if (prior) {
          (prior.related ??= []).push(l.n);
          continue;
        }
        const error = m[4] === 'error';
        const signal: Signal = {
          kind: 'diagnostic',
          path: m[1]!.trim(),
          line: Number(m[2]),
          column: Number(m[3]),
          message: `${m[5]}: ${m[6]}`,
          tool: 'dotnet',
          severity: error ? 'error' : 'warning',
          category: codeCategory(m[5]!, m[6]!),
          weight: error ? 1 : 0.3,
          logLine: l.n,
        };
        seen.set(key, signal);
        out.push(signal);
        continue;
      }
      if (text.includes(': error ')) {
        const u = UNLOCATED.exec(text);
        if (u && !seen.has(u[0])) {
          seen.set(u[0], out[out.push({ kind: 'diagnostic', message: `${u[1]}: ${u[2]}`, tool: 'dotnet', severity: 'error', category: codeCategory(u[1]!, u[2]!), weight: 0.8, logLine: l.n }) - 1]!);
        }
        continue;
      }
      if (text.includes('Failed ')) {
        const f = FAILED_TEST.exec(text);
        if (f) out.push(testSignal(f[1]!, lines, i));
      }
    }
    return out;
  },
};

function codeCategory(code: string, message: string): Category {
  if (code.startsWith('NU')) return NETWORK.test(message) ? 'infra' : 'dependency';
  // CS0246/CS0234 (type not found) are left as compile: as often a missing `using` or a typo as a package.
  // Analyzer and style rules (IDE0055, CA1822, SA1200…) are lint; compiler codes are CS/FS/BC.
  if (/^(?:IDE|CA|SA|RCS|S)\d+$/.test(code)) return 'lint';
  return 'compile';
}

/** A failed test: `Error Message:` gives the message, `Stack Trace:` the first repo frame. */
function testSignal(name: string, lines: readonly LogLine[], at: number): Signal {
  const signal: Signal = { kind: 'test', symbol: name, message: name, tool: 'dotnet', category: 'test', severity: 'error', weight: 0.9, logLine: lines[at]!.n };
  const related: number[] = [];
  let section = '';
  for (let k = at + 1; k < lines.length && k < at + 200; k++) {
    const t = lines[k]!.text;
    const trimmed = t.trim();
    if (trimmed === 'Error Message:' || trimmed === 'Stack Trace:' || trimmed === 'Standard Output Messages:') {
      section = trimmed;
      continue;
    }
    // The block ends at the next result line or the run summary, both indented less than its body.
    if (!/^\s{3}/.test(t) || /^\s*(?:Passed|Failed|Skipped) \S/.test(t)) break;
    if (section === 'Error Message:' && trimmed) {
      if (signal.message === name) signal.message = trimmed;
      related.push(lines[k]!.n);
    } else if (section === 'Stack Trace:' && signal.path === undefined) {
      const f = parseDotnetFrame(t);
      if (f && !isDotnetLibraryFrame(f.symbol)) {
        signal.path = f.path;
        signal.line = f.line;
      }
    }
  }
  if (related.length) signal.related = related;
  return signal;
}
