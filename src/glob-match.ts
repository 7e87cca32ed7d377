/**
 * The globs of `.github/redline.yml` (`jobs`, `ignorePaths`, `branches`): `*` any run of characters
 * but `/` (in paths) or of any characters (in names), `**` any run including `/`, `?` one character,
 * `{a,b}` alternatives. Nothing else is special, so a job name like `test (node 20)` matches itself.
 */

export interface GlobOptions {
  /** true: `*` stops at `/` and `dir/` matches everything under dir (paths); false: `*` matches anything (names). */
  path: boolean;
}

const cache = new Map<string, RegExp>();
const escape = (c: string): string => c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** The regular expression of one glob (cached; patterns are bounded by the config schema). */
export function globToRegExp(glob: string, opts: GlobOptions): RegExp {
  const key = `${opts.path ? 'p' : 'n'}:${glob}`;
  const hit = cache.get(key);
  if (hit) return hit;
  let src = '';
  let depth = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        i++;
        // `**/` also matches no folder at all: `**/x.ts` matches `x.ts`.
        if (opts.path && glob[i + 1] === '/') {
          i++;
          src += '(?:.*/)?';
        } else src += '.*';
      } else src += opts.path ? '[^/]*' : '.*';
    } else if (c === '?') src += opts.path ? '[^/]' : '.';
    else if (c === '{') {
      depth++;
      src += '(?:';
    } else if (c === '}' && depth > 0) {
      depth--;
      src += ')';
    } else if (c === ',' && depth > 0) src += '|';
    else src += escape(c);
  }
  src += ')'.repeat(depth);
  // A path pattern ending in `/` is a folder: everything under it.
  if (opts.path && glob.endsWith('/')) src += '.*';
  const re = new RegExp(`^${src}$`);
  if (cache.size > 1000) cache.clear();
  cache.set(key, re);
  return re;
}

/** Whether `value` matches any of `globs`. */
export function matchesAny(value: string, globs: readonly string[], opts: GlobOptions): boolean {
  return globs.some((g) => globToRegExp(g, opts).test(value));
}

/**
 * Whether a repository path is ignored: a pattern without `/` matches the file name at any depth
 * (`*.generated.ts`), one with `/` matches from the root (`vendor/**`, `dist/`), as in .gitignore.
 */
export function pathIgnored(file: string, globs: readonly string[]): boolean {
  const p = file.replace(/^\.\//, '');
  return globs.some((g) => {
    const anchored = g.replace(/^\//, '');
    const re = globToRegExp(anchored, { path: true });
    if (re.test(p)) return true;
    return !anchored.slice(0, -1).includes('/') && p.split('/').some((_, i, parts) => re.test(parts.slice(i).join('/')));
  });
}
