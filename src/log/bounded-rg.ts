import { spawn } from 'node:child_process';
import type { Writable } from 'node:stream';
import { rgPath } from '@vscode/ripgrep';
import { BIG_FILE_RG_TIMEOUT_MS, RG_LOG_MEMORY_BYTES } from '../limits.js';

/** ripgrep ran out of the memory it was given (a line longer than its buffer may grow): read the log another way. */
export class RgOutOfMemory extends Error {
  constructor(readonly detail: string) {
    super(`ripgrep ran out of memory on the log (${detail}); reading it in bounded windows instead`);
  }
}

export interface BoundedRg {
  /** rg's stdin when it reads the log from us (`-` as its path), else null. */
  stdin: Writable | null;
  /** rg's exit code (0 matches, 1 none, 2 error); rejects with RgOutOfMemory when it hit its memory bound. */
  done: Promise<{ code: number | null; stderr: string }>;
  kill(): void;
}

/**
 * Runs the bundled ripgrep over a log with its address space capped at RG_LOG_MEMORY_BYTES (`ulimit -v`
 * in a shell that then execs rg; the path and arguments are positional parameters, never shell text):
 * ripgrep buffers a whole line, and a 1 GB line would otherwise cost 1 GB. `--no-config` always first.
 * On Windows (no sh, no ulimit) rg runs uncapped.
 */
export function spawnBoundedRg(args: readonly string[], opts: { stdin?: boolean; onChunk?: (chunk: Buffer) => void; timeoutMs?: number } = {}): BoundedRg {
  const env = { ...process.env };
  delete env.RIPGREP_CONFIG_PATH;
  const argv = ['--no-config', ...args];
  const kb = Math.floor(RG_LOG_MEMORY_BYTES / 1024);
  const child =
    process.platform === 'win32'
      ? spawn(rgPath, argv, { cwd: '/', stdio: [opts.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'], env, windowsHide: true })
      : spawn('/bin/sh', ['-c', `ulimit -v ${kb} 2>/dev/null; exec "$0" "$@"`, rgPath, ...argv], { cwd: '/', stdio: [opts.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'], env });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => {
    if (stderr.length < 4096) stderr += d.toString();
  });
  child.stdout!.on('data', (d: Buffer) => opts.onChunk?.(d));
  // A reader that stops early (EPIPE on our side) is not an error of the scan.
  child.stdin?.on('error', () => {});
  const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? BIG_FILE_RG_TIMEOUT_MS);
  const done = new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(new RgOutOfMemory(`could not start: ${e.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      // Rust aborts (SIGABRT, 134 through the shell) when an allocation fails under the cap.
      if (code === 134 || signal === 'SIGABRT' || /memory allocation of \d+ bytes failed/.test(stderr)) reject(new RgOutOfMemory(stderr.trim().split('\n')[0] ?? 'aborted'));
      else resolve({ code, stderr });
    });
  });
  done.catch(() => {});
  return { stdin: child.stdin, done, kill: () => child.kill('SIGKILL') };
}
