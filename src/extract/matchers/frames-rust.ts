import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

const MAX_LINE = 2000;
// `   4: update::picks_newest_compatible`; RUST_BACKTRACE=full adds the address: `   4:  0x55d… - name`.
const FRAME = /^\s*\d+:\s+(?:0x[0-9a-f]+ - )?(\S.*)$/;
const AT = /^\s+at (.+?):(\d+)(?::(\d+))?$/;
// The toolchain's own sources (`/rustc/<hash>/library/…`) and downloaded crates are never the PR's code.
// A host process's C runtime under a Rust library's frames (an npm package's native addon: glibc's sources as its
// debug info names them, `./nptl/pthread_create.c`, and Node's libuv as its release build names it, `…/deps/uv/src/…`).
const LIBRARY_PATH = /^\/rustc\/|\/\.cargo\/(?:registry|git)\/|\/rustlib\/|\/library\/(?:std|core|alloc)\/src\/|^\.\/(?:nptl|misc|sysdeps|csu|stdlib|elf|posix|string)\/|\/deps\/uv\/src\//;
const LIBRARY_SYMBOL = /^(?:std|core|alloc|test|__rustc)::|^rust_begin_unwind$/;

/** Reads Rust panic and error backtraces (`stack backtrace:`, anyhow's `Stack backtrace:`, then `N: crate::fn` + `at path:line:col` pairs). */
export const rustBacktraceMatcher: Matcher = {
  id: 'rust-backtrace',
  extract(lines: readonly LogLine[]): Signal[] {
    const out: Signal[] = [];
    let inTrace = false;
    for (let i = 0; i < lines.length; i++) {
      const { n, text } = lines[i]!;
      // std's panic header, or anyhow's and eyre's under an error's `Caused by:` chain
      if (text === 'stack backtrace:' || text === 'Stack backtrace:') {
        inTrace = true;
        continue;
      }
      if (!inTrace || text.length > MAX_LINE) continue;
      const f = FRAME.exec(text);
      if (!f) {
        // `note: Some details are omitted…` or the next test's output: the trace is over.
        if (!AT.test(text)) inTrace = false;
        continue;
      }
      const at = i + 1 < lines.length ? AT.exec(lines[i + 1]!.text) : null;
      // Frames without debug info have no location: nothing to point at, but the trace goes on.
      if (!at) continue;
      // Symbols end in a hash when not demangled with `{:#}`: `foo::bar::h1a2b3c4d5e6f7a8b`.
      const symbol = f[1]!.replace(/::h[0-9a-f]{16}$/, '');
      const path = at[1]!;
      const library = LIBRARY_PATH.test(path) || LIBRARY_SYMBOL.test(symbol);
      out.push({
        kind: 'frame',
        path,
        line: Number(at[2]),
        ...(at[3] ? { column: Number(at[3]) } : {}),
        symbol,
        message: `${symbol} at ${path}:${at[2]}${at[3] ? `:${at[3]}` : ''}`,
        tool: 'rust-backtrace',
        weight: library ? 0.05 : 0.6,
        logLine: lines[i + 1]!.n,
        related: [n],
      });
      i++;
    }
    return out;
  },
};
