import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { installedCopyOf, isExternalPath, mapLogPath, normaliseLogPath, openWorkspace, stripCiPrefix, type Workspace } from '../../src/repo/workspace.js';

/** A small checkout on disk: these are our own path strings, not recorded logs. */
function makeRepo(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'redline-ws-'));
  for (const [f, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, f)), { recursive: true });
    writeFileSync(join(root, f), text);
  }
  roots.push(root);
  return root;
}
const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

describe('normaliseLogPath / stripCiPrefix', () => {
  it('normalises backslashes, ./, quotes, trailing punctuation and doubled slashes', () => {
    expect(normaliseLogPath('.\\src\\a.ts')).toBe('src/a.ts');
    expect(normaliseLogPath("'src/a.ts',")).toBe('src/a.ts');
    expect(normaliseLogPath('(src//lib/a.ts)')).toBe('src/lib/a.ts');
    expect(normaliseLogPath('file:///D:/a/r/r/src/a.ts')).toBe('D:/a/r/r/src/a.ts');
    expect(normaliseLogPath('file:///home/me/my%20app/a.ts')).toBe('/home/me/my app/a.ts');
  });

  it.each([
    ['/home/runner/work/r/r/src/a.ts', 'src/a.ts'],
    ['/Users/runner/work/r/r/src/a.ts', 'src/a.ts'],
    ['/__w/r/r/src/a.ts', 'src/a.ts'],
    ['/github/workspace/src/a.ts', 'src/a.ts'],
    ['D:\\a\\r\\r\\src\\a.ts', 'src/a.ts'],
    ['C:/a/r/r/src/a.ts', 'src/a.ts'],
    ['/builds/g/p/src/a.ts', 'src/a.ts'],
    ['/home/travis/build/o/r/src/a.ts', 'src/a.ts'],
    ['/app/src/a.ts', 'src/a.ts'],
    ['file:///home/runner/work/r/r/src/a.ts', 'src/a.ts'],
    ['file:///D:/a/r/r/src/a.ts', 'src/a.ts'],
    ['src/a.ts', 'src/a.ts'],
  ])('strips the CI prefix of %s', (input, want) => {
    expect(stripCiPrefix(input)).toBe(want);
  });

  it('strips the local checkout root when given', () => {
    expect(stripCiPrefix('/tmp/checkout/src/a.ts', '/tmp/checkout')).toBe('src/a.ts');
  });
});

describe('isExternalPath', () => {
  it.each([
    'node_modules/lodash/index.js',
    'packages/x/node_modules/react/index.js',
    '/usr/lib/python3.11/site-packages/requests/api.py',
    '/opt/venv/lib/python3.12/json/decoder.py',
    'node:internal/modules/cjs/loader',
    'internal/process/task_queues.js',
    '/rustc/abc123/library/core/src/panicking.rs',
    '/usr/local/go/src/runtime/panic.go',
    'vendor/github.com/pkg/errors/errors.go',
  ])('%s is external', (p) => {
    expect(isExternalPath(p)).toBe(true);
  });

  it.each(['src/a.ts', 'internal/money/money.go', 'lib/internal.rb', 'app/vendors.py'])('%s is not', (p) => {
    expect(isExternalPath(p)).toBe(false);
  });
});

describe('mapLogPath', () => {
  let ws: Workspace;
  beforeAll(async () => {
    const root = makeRepo({
      'src/index.ts': 'export {};\n',
      'src/util/money.ts': 'export const x = 1;\n',
      'packages/x/src/a.ts': 'export const a = 1;\n',
      'packages/x/src/only-here.ts': 'export const o = 1;\n',
      'packages/y/src/config.ts': 'export const c = 1;\n',
      'packages/z/src/config.ts': 'export const c = 2;\n',
      'internal/util/strings.go': 'package util\n',
      'svc/internal/fs/walk.go': 'package fs\n',
      'svc/go.mod': 'module example.com/svc\n',
      // Installed dependencies present on disk without a .gitignore: listed, but never ours.
      'node_modules/left-pad/index.js': 'module.exports = 1;\n',
      'venv/lib/python3.12/site-packages/requests/api.py': 'x = 1\n',
    });
    ws = await openWorkspace(root);
  });

  it.each([
    '/home/runner/work/r/r/src/util/money.ts',
    '/__w/r/r/src/util/money.ts',
    '/github/workspace/src/util/money.ts',
    'D:\\a\\r\\r\\src\\util\\money.ts',
    '/builds/g/p/src/util/money.ts',
    'file:///home/runner/work/r/r/src/util/money.ts',
    './src/util/money.ts',
  ])('maps %s exactly', (p) => {
    expect(mapLogPath(ws, p)).toEqual({ file: 'src/util/money.ts', how: 'exact', alternatives: [] });
  });

  it('maps an absolute path under the local checkout root', () => {
    expect(mapLogPath(ws, join(ws.root, 'src/index.ts'))?.file).toBe('src/index.ts');
  });

  it('maps a path printed by a tool run inside a sub-package (src/a.ts from packages/x)', () => {
    const m = mapLogPath(ws, 'src/a.ts');
    expect(m).toEqual({ file: 'packages/x/src/a.ts', how: 'suffix', alternatives: [] });
    expect(mapLogPath(ws, '/home/runner/work/r/r/packages/x/src/a.ts')?.how).toBe('exact');
    expect(mapLogPath(ws, 'src/a.ts', 'packages/x')).toEqual({ file: 'packages/x/src/a.ts', how: 'exact', alternatives: [] });
  });

  it('maps an absolute path of another machine by suffix', () => {
    expect(mapLogPath(ws, '/Users/alice/code/proj/packages/x/src/a.ts')?.file).toBe('packages/x/src/a.ts');
    expect(mapLogPath(ws, '/home/alice/elsewhere/only-here.ts')).toEqual({ file: 'packages/x/src/only-here.ts', how: 'unique-name', alternatives: [] });
  });

  it('reports alternatives when two files share the name and the log does not say which', () => {
    const m = mapLogPath(ws, 'src/config.ts');
    expect(m?.file).toBe('packages/y/src/config.ts');
    expect(m?.how).toBe('suffix');
    expect(m?.alternatives).toEqual(['packages/z/src/config.ts']);
    // A sub-package hint settles it.
    expect(mapLogPath(ws, 'src/config.ts', 'packages/z')?.file).toBe('packages/z/src/config.ts');
    // So does a longer path.
    expect(mapLogPath(ws, '/__w/r/r/packages/z/src/config.ts')).toEqual({ file: 'packages/z/src/config.ts', how: 'exact', alternatives: [] });
  });

  it('returns null for dependencies, runtime internals and files the repo lacks', () => {
    expect(mapLogPath(ws, '/home/runner/work/r/r/node_modules/left-pad/index.js')).toBeNull();
    expect(mapLogPath(ws, 'node_modules/left-pad/index.js')).toBeNull();
    expect(mapLogPath(ws, 'venv/lib/python3.12/site-packages/requests/api.py')).toBeNull();
    expect(mapLogPath(ws, '/opt/hostedtoolcache/Python/3.12.1/x64/lib/python3.12/site-packages/requests/api.py')).toBeNull();
    expect(mapLogPath(ws, 'node:internal/modules/cjs/loader')).toBeNull();
    expect(mapLogPath(ws, 'node:internal/process/task_queues')).toBeNull();
    expect(mapLogPath(ws, 'internal/process/task_queues.js')).toBeNull();
    expect(mapLogPath(ws, 'src/missing.ts')).toBeNull();
    expect(mapLogPath(ws, '')).toBeNull();
  });

  it("maps a repo's own internal/ folder, even where it looks like node's internals", () => {
    expect(mapLogPath(ws, '/home/runner/work/r/r/internal/util/strings.go')).toEqual({ file: 'internal/util/strings.go', how: 'exact', alternatives: [] });
    expect(mapLogPath(ws, 'internal/util/strings.go')?.file).toBe('internal/util/strings.go');
    // `go vet` run inside svc/ prints paths relative to svc/.
    expect(mapLogPath(ws, 'internal/fs/walk.go')).toEqual({ file: 'svc/internal/fs/walk.go', how: 'suffix', alternatives: [] });
    expect(mapLogPath(ws, './internal/fs/walk.go')?.file).toBe('svc/internal/fs/walk.go');
  });
});

describe('openWorkspace', () => {
  it('lists files relative with /, sorted, honours .gitignore, and reads lines', async () => {
    const root = makeRepo({
      '.gitignore': 'build/\n',
      'b.ts': 'one\r\ntwo\n',
      'a/c.ts': 'x\n',
      'build/out.js': 'ignored\n',
      'bin.dat': 'a\0b',
    });
    const ws = await openWorkspace(root);
    expect(ws.files).toEqual(['.gitignore', 'a/c.ts', 'b.ts', 'bin.dat']);
    expect(ws.byBase.get('c.ts')).toEqual(['a/c.ts']);
    expect(ws.lines('b.ts')).toEqual(['one', 'two', '']);
    expect(ws.lines('bin.dat')).toBeUndefined();
    expect(ws.lines('build/out.js')).toBeUndefined();
    expect(ws.lines('nope.ts')).toBeUndefined();
    expect(ws.truncated).toBe(false);
  });
});

describe('installedCopyOf: the project tested as an installed package', () => {
  let ws: Workspace;
  beforeAll(async () => {
    ws = await openWorkspace(makeRepo({ 'netCDF4/utils.py': 'x = 1\n', 'netCDF4/__init__.py': '\n', 'six.py': '\n', 'src/pkg/mod.py': '\n' }));
  });

  it('maps a frame of the egg `setup.py test` installed onto the checkout file it was built from', () => {
    // The frame path of Unidata/netcdf4-python's Travis job 247165047 (BugSwarm dissection).
    const p = '/home/travis/virtualenv/python3.5.3/lib/python3.5/site-packages/netCDF4-1.3.0-py3.5-linux-x86_64.egg/netCDF4/utils.py';
    expect(installedCopyOf(ws, p)).toBe('netCDF4/utils.py');
    expect(mapLogPath(ws, p)).toEqual({ file: 'netCDF4/utils.py', how: 'suffix', alternatives: [] });
    expect(installedCopyOf(ws, '.tox/py312/lib/python3.12/site-packages/pkg/mod.py')).toBe('src/pkg/mod.py');
  });

  it('leaves other packages, and lone modules that could be anyone’s, to the libraries', () => {
    expect(installedCopyOf(ws, '/usr/lib/python3.5/site-packages/numpy/testing/utils.py')).toBeNull();
    expect(installedCopyOf(ws, '/usr/lib/python3.5/site-packages/six.py')).toBeNull();
    expect(mapLogPath(ws, '/usr/lib/python3.5/site-packages/six.py')).toBeNull();
    expect(installedCopyOf(ws, 'netCDF4/utils.py')).toBeNull();
  });
});
