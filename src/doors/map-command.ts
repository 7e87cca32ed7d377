import { parseArgs } from 'node:util';
import { mustBeDir } from './check-args.js';
import { UsageError } from '../errors.js';
import { openWorkspace } from '../repo/workspace.js';
import { tagsForFiles } from '../repo/map/tags.js';
import { buildRepoMap } from '../repo/map/repo-map.js';
import { backgroundTokenCounter } from '../repo/map/tokens.js';
import { codeFiles } from '../repo/map/code-files.js';
import { DEFAULT_MAP_TOKENS } from '../limits.js';
import { MAP_USAGE } from './map-usage.js';

export { MAP_USAGE };

interface IO {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
}

/** `redline map`: prints the ranked, token-bounded repo map (signatures only) of a checkout. */
export async function mapCommand(args: string[], io: IO): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      options: { repo: { type: 'string' }, focus: { type: 'string', multiple: true }, tokens: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (e) {
    throw new UsageError(`${(e as Error).message.split('\n')[0]}; run "redline map --help"`);
  }
  if (values.help) {
    io.stdout.write(MAP_USAGE + '\n');
    return 0;
  }
  if (!values.repo) throw new UsageError('--repo is required: pass the checkout to map');
  mustBeDir(values.repo, '--repo');
  const tokens = values.tokens === undefined ? DEFAULT_MAP_TOKENS : Number(values.tokens);
  if (!Number.isInteger(tokens) || tokens < 1) throw new UsageError(`--tokens ${values.tokens} is not a positive whole number`);

  const t0 = performance.now();
  const counter = backgroundTokenCounter();
  const ws = await openWorkspace(values.repo);
  const files = codeFiles(ws);
  if (io.stderr.isTTY) io.stderr.write(`\r\x1b[2Kreading ${files.length} files…`);
  const tags = await tagsForFiles(ws, files);
  if (io.stderr.isTTY) io.stderr.write('\r\x1b[2K');
  const focus = values.focus ?? [];
  const map = await buildRepoMap(
    tags,
    { tokens, focusFiles: focus.filter((f) => ws.fileSet.has(f)), focusSymbols: focus.filter((f) => !ws.fileSet.has(f)) },
    (t) => counter.count(t),
  );
  counter.close();
  io.stdout.write(map.text || '(nothing fits in the budget: raise --tokens)\n');
  io.stderr.write(`redline: map of ${tags.size} files: ${map.shown.length} of ${map.totalDefinitions} definitions in ${map.tokens} tokens, ${Math.round(performance.now() - t0)} ms\n`);
  return 0;
}
