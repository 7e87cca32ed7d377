import { statSync } from 'node:fs';
import { z } from 'zod';
import { GLOB_MAX_PATHS, RG_MAX_OUTPUT_BYTES, RG_TIMEOUT_MS } from '../../limits.js';
import { realRoot, resolveInside, toRepoPath } from '../../safety/confine.js';
import { runRipgrep, WALK_ARGS } from '../../repo/ripgrep.js';
import { errorResult, loadDescription, type Tool, type ToolResult } from './tool.js';
import { cutNotice, printable, spillFull, spillName } from './truncate.js';

const parameters = z.object({
  pattern: z
    .string()
    .min(1, 'pattern must not be empty')
    .describe('Glob for file paths, e.g. "*.ts", "package.json" or "src/**/*.test.ts".'),
  path: z.string().optional().describe('Folder to look in, relative to the repository root. Default: the whole repository.'),
});

/** glob: `rg --files --glob=<pattern>`, relative sorted paths, at most GLOB_MAX_PATHS shown. */
export const globTool: Tool<typeof parameters> = {
  id: 'glob',
  description: loadDescription(new URL('./glob.txt', import.meta.url)),
  parameters,
  async execute(args, ctx): Promise<ToolResult> {
    const cwd = realRoot(ctx.root);
    const abs = resolveInside(ctx.root, args.path ?? '.');
    const rel = toRepoPath(ctx.root, abs);
    const title = `glob ${JSON.stringify(args.pattern)}${rel ? ` in ${rel}` : ''}`;
    let isDir = false;
    try {
      isDir = statSync(abs).isDirectory();
    } catch {
      /* below */
    }
    if (!isDir) {
      return errorResult(
        title,
        `Path "${args.path}" is not a folder of the repository. Leave path empty to search the whole repository, or give a folder such as "src".`,
      );
    }

    const res = await runRipgrep(
      ['--files', `--glob=${args.pattern}`, ...WALK_ARGS, '--null', '--', rel === '' ? '.' : rel],
      { cwd, timeoutMs: RG_TIMEOUT_MS, maxOutputBytes: RG_MAX_OUTPUT_BYTES, separator: '\0', signal: ctx.signal },
    );
    if (res.code === 2 && res.stdout === '' && !res.truncated && !res.timedOut) {
      return errorResult(title, `glob failed: ${res.stderr.trim().split('\n').slice(0, 5).join('\n') || 'ripgrep reported an error'}\nCheck the glob syntax (e.g. "*.ts", "src/**/*.js", "*.{yml,yaml}").`);
    }
    const paths = res.stdout.split('\0');
    paths.pop();
    for (let i = 0; i < paths.length; i++) {
      const p = paths[i]!;
      paths[i] = printable(p.startsWith('./') ? p.slice(2) : p);
    }
    paths.sort();
    const partial = res.truncated || res.timedOut || res.aborted;
    if (paths.length === 0) {
      const output = res.timedOut
        ? `No files found before the listing stopped after ${RG_TIMEOUT_MS / 1000}s. Set path to a folder to narrow it.`
        : `No files found matching ${JSON.stringify(args.pattern)}${rel ? ` in ${rel}` : ''}. A pattern without "/" matches names at any depth ("*.ts"); one with "/" matches from the repository root ("src/**/*.ts"). Files ignored by .gitignore are not listed.`;
      return { title, output, metadata: { truncated: res.timedOut, count: 0 } };
    }
    const shown = paths.slice(0, GLOB_MAX_PATHS);
    let output = shown.join('\n');
    const cut = paths.length > GLOB_MAX_PATHS || partial;
    if (cut) {
      const spilledTo = await spillFull(ctx, spillName('glob', args), paths.join('\n') + '\n');
      const hint = 'Use a more specific pattern (e.g. "src/**/*.test.ts") or set path to a folder.';
      output +=
        '\n\n' +
        (paths.length > GLOB_MAX_PATHS
          ? cutNotice({ shown: shown.length, total: paths.length, unit: 'paths', hint, atLeast: partial, spilledTo })
          : `(The listing was stopped before the end, so there may be more files. ${hint})`);
    }
    return { title, output, metadata: { truncated: cut, count: paths.length, shown: shown.length, partial } };
  },
};
