import { gzipSync } from 'node:zlib';
import { Header, Pax } from 'tar';

/** A tarball entry: file text or bytes, or a link (its target is written as given: tests can aim out of the tree). */
export type TarEntry =
  | string
  | Buffer
  | { symlink: string }
  | { hardlink: string }
  | { content: string | Buffer; mode: number };

export interface MakeTarballOptions {
  /** Commit SHA written to the pax global header's `comment`, as GitHub's archives do. */
  sha?: string;
  /** Entry mtime. Default 2026-01-01. */
  mtime?: Date;
}

/**
 * A gzip tarball shaped like GitHub's `GET /repos/{o}/{r}/tarball/{ref}`: a pax global header with the
 * commit SHA, then everything under `prefix/` (GitHub uses `owner-repo-<short sha>/`), directories first.
 * Paths are written verbatim (with `prefix/` in front), so hostile names (`../x`, absolute links) can be
 * built for extraction-safety tests. Headers are encoded with the `tar` package.
 */
export function makeTarball(files: Record<string, TarEntry>, prefix: string, opts: MakeTarballOptions = {}): Buffer {
  const mtime = opts.mtime ?? new Date('2026-01-01T00:00:00Z');
  const root = prefix.replace(/\/+$/, '');
  const blocks: Buffer[] = [];
  if (opts.sha) blocks.push(new Pax({ comment: opts.sha, mtime }, true).encode());

  const dirs = new Set<string>([`${root}/`]);
  for (const name of Object.keys(files)) {
    const parts = name.split('/');
    for (let i = 1; i < parts.length; i++) dirs.add(`${root}/${parts.slice(0, i).join('/')}/`);
  }
  for (const dir of [...dirs].sort()) blocks.push(...entry({ path: dir, type: 'Directory', mode: 0o775, size: 0, mtime }));

  for (const [name, value] of Object.entries(files).sort(([a], [b]) => a.localeCompare(b))) {
    const path = `${root}/${name}`;
    if (typeof value === 'object' && 'symlink' in value) {
      blocks.push(...entry({ path, type: 'SymbolicLink', linkpath: value.symlink, mode: 0o777, size: 0, mtime }));
    } else if (typeof value === 'object' && 'hardlink' in value) {
      blocks.push(...entry({ path, type: 'Link', linkpath: value.hardlink, mode: 0o664, size: 0, mtime }));
    } else {
      const isObj = typeof value === 'object' && !Buffer.isBuffer(value);
      const content = isObj ? value.content : value;
      const data = Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8');
      blocks.push(...entry({ path, type: 'File', mode: isObj ? value.mode : 0o664, size: data.length, mtime }, data));
    }
  }
  blocks.push(Buffer.alloc(1024)); // end of archive: two zero blocks
  return gzipSync(Buffer.concat(blocks));
}

interface EntryData {
  path: string;
  type: 'File' | 'Directory' | 'SymbolicLink' | 'Link';
  mode: number;
  size: number;
  mtime: Date;
  linkpath?: string;
}

function entry(data: EntryData, body?: Buffer): Buffer[] {
  const header = new Header({ ...data, uid: 0, gid: 0, uname: 'root', gname: 'root' });
  const out: Buffer[] = [];
  if (header.encode()) {
    // Too long for ustar fields: a pax extended header carries the full path / link target.
    out.push(new Pax({ path: data.path, linkpath: data.linkpath, mtime: data.mtime }).encode());
  }
  out.push(header.block!);
  if (body && body.length) {
    out.push(body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  return out;
}
