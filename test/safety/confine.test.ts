import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutsideWorkspaceError, resolveInside } from '../../src/safety/confine.js';

let base: string;
let root: string;
let outside: string;

beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'redline-confine-')));
  root = join(base, 'repo');
  outside = join(base, 'outside');
  mkdirSync(join(root, 'src'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 1;\n');
  writeFileSync(join(outside, 'secret.txt'), 'TOKEN\n');
  symlinkSync('/proc/self/environ', join(root, 'env'));
  symlinkSync(join(homedir(), '.ssh'), join(root, 'ssh'));
  symlinkSync(outside, join(root, 'outdir'));
  symlinkSync(join(outside, 'nope.txt'), join(root, 'dangling'));
  symlinkSync('src/a.ts', join(root, 'inner-link.ts'));
  symlinkSync(join(root, 'src'), join(base, 'root-alias-src'));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

function refused(p: string, reason: string): void {
  let err: unknown;
  try {
    resolveInside(root, p);
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(OutsideWorkspaceError);
  const e = err as OutsideWorkspaceError;
  expect(e.name).toBe('OutsideWorkspaceError');
  expect(e.path).toBe(p);
  expect(e.reason).toBe(reason);
  expect(e.message).toMatch(/relative to the repository root/);
}

describe('resolveInside', () => {
  it('resolves relative and absolute paths inside the root', () => {
    expect(resolveInside(root, 'src/a.ts')).toBe(join(root, 'src', 'a.ts'));
    expect(resolveInside(root, './src/../src/a.ts')).toBe(join(root, 'src', 'a.ts'));
    expect(resolveInside(root, join(root, 'src', 'a.ts'))).toBe(join(root, 'src', 'a.ts'));
    expect(resolveInside(root, '.')).toBe(root);
    expect(resolveInside(root, '')).toBe(root);
  });

  it('follows symlinks that stay inside', () => {
    expect(resolveInside(root, 'inner-link.ts')).toBe(join(root, 'src', 'a.ts'));
  });

  it('accepts paths that do not exist yet (for near-miss suggestions)', () => {
    expect(resolveInside(root, 'src/missing/b.ts')).toBe(join(root, 'src', 'missing', 'b.ts'));
  });

  it('refuses .. escapes', () => {
    refused('../outside/secret.txt', 'dotdot');
    refused('src/../../outside', 'dotdot');
    refused('..', 'dotdot');
  });

  it('refuses absolute paths outside', () => {
    refused('/etc/passwd', 'absolute');
    refused(join(outside, 'secret.txt'), 'absolute');
  });

  it('refuses symlinks that point out, also through folders and when dangling', () => {
    refused('env', 'symlink');
    refused('ssh', 'symlink');
    refused('ssh/id_rsa', 'symlink');
    refused('outdir/secret.txt', 'symlink');
    refused('outdir', 'symlink');
    refused('dangling', 'symlink');
  });

  it('does not mistake a sibling with the same prefix for the root', () => {
    mkdirSync(`${root}-evil`, { recursive: true });
    refused(`${root}-evil`, 'absolute');
  });
});
