import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/**
 * A path the caller asked for that is not inside the repository: a `..` escape, an absolute path
 * elsewhere, or a symlink whose target is outside. The message says what to do instead, so a tool can
 * hand it to the model as is.
 */
export class OutsideWorkspaceError extends Error {
  override readonly name = 'OutsideWorkspaceError';
  /** The path as it was given. */
  readonly path: string;
  /** Why it was refused: 'dotdot' | 'absolute' | 'symlink'. */
  readonly reason: 'dotdot' | 'absolute' | 'symlink';

  constructor(path: string, reason: 'dotdot' | 'absolute' | 'symlink') {
    const why =
      reason === 'symlink'
        ? 'it is, or goes through, a symlink that points outside the repository'
        : reason === 'absolute'
          ? 'it is an absolute path outside the repository'
          : 'its ".." parts climb out of the repository';
    super(
      `Path "${path}" is outside the repository: ${why}. Only files inside the repository can be read. ` +
        'Use a path relative to the repository root (for example "src/index.ts"), without leading "/" or "..".',
    );
    this.path = path;
    this.reason = reason;
  }
}

/** True when `p` (absolute, normalised) is `root` itself or below it. */
export function isInside(root: string, p: string): boolean {
  const rel = relative(root, p);
  return rel === '' || (!isAbsolute(rel) && rel !== '..' && !rel.startsWith('..' + sep));
}

/** realpath of the repository root; throws a plain Error when it does not exist. */
export function realRoot(root: string): string {
  return realpathSync.native(root);
}

/**
 * Resolves a path the caller gave (relative to `root`, or absolute) to an absolute, symlink-free path
 * that is inside realpath(root), or throws OutsideWorkspaceError.
 *
 * The path need not exist (so a tool can say "not found" and suggest names): the longest existing
 * prefix is realpath-resolved and checked, and the missing rest (which cannot contain symlinks or `..`)
 * is appended. `..` is resolved lexically first, so `a/../../x` is refused before touching the disk.
 */
export function resolveInside(root: string, relOrAbs: string): string {
  const base = realRoot(root);
  if (relOrAbs.includes('\0')) throw new Error(`Path "${relOrAbs.replace(/\0/g, '\\0')}" contains a NUL character.`);

  let lexical: string;
  if (isAbsolute(relOrAbs)) {
    lexical = resolve(relOrAbs);
    // The caller may name the root through a symlinked spelling (e.g. /tmp vs /private/tmp): accept
    // both the given and the real root.
    const givenRoot = resolve(root);
    if (isInside(givenRoot, lexical)) lexical = join(base, relative(givenRoot, lexical));
    else if (!isInside(base, lexical)) throw new OutsideWorkspaceError(relOrAbs, 'absolute');
  } else {
    lexical = resolve(base, relOrAbs);
    if (!isInside(base, lexical)) throw new OutsideWorkspaceError(relOrAbs, 'dotdot');
  }

  // Find the longest existing prefix and resolve its symlinks.
  let existing = lexical;
  let rest = '';
  for (;;) {
    try {
      const real = realpathSync.native(existing);
      if (!isInside(base, real)) throw new OutsideWorkspaceError(relOrAbs, 'symlink');
      return rest === '' ? real : join(real, rest);
    } catch (e) {
      if (e instanceof OutsideWorkspaceError) throw e;
      const code = (e as NodeJS.ErrnoException).code;
      // ENOENT: missing; ENOTDIR: a file used as a folder; ELOOP: a symlink cycle. Walk up and keep the
      // rest literal. Anything else (EACCES...) is also treated as "does not resolve further".
      if (code !== 'ENOENT' && code !== 'ENOTDIR' && code !== 'ELOOP' && code !== 'EACCES') throw e;
      // A dangling symlink resolves nowhere today but would be followed on open: check where it points.
      if (danglingTargetOutside(base, existing)) throw new OutsideWorkspaceError(relOrAbs, 'symlink');
      const parent = dirname(existing);
      if (parent === existing) throw e;
      rest = rest === '' ? relative(parent, existing) : join(relative(parent, existing), rest);
      existing = parent;
    }
  }
}

function danglingTargetOutside(base: string, p: string): boolean {
  try {
    if (!lstatSync(p).isSymbolicLink()) return false;
    return !isInside(base, resolve(dirname(p), readlinkSync(p)));
  } catch {
    return false;
  }
}

/** The `/`-separated path of an absolute path inside the repository, relative to the real root ('' for the root). */
export function toRepoPath(root: string, abs: string): string {
  return relative(realRoot(root), abs).split(sep).join('/');
}
