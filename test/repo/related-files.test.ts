import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
// @ts-expect-error plain ESM helper shared with the golden test and the bench
import { layOutCase } from '../../scripts/lay-out-case.mjs';
import { openWorkspace, type Workspace } from '../../src/repo/workspace.js';
import { importsOf, isTestFile } from '../../src/repo/related-files.js';

const LOGS = fileURLToPath(new URL('../../fixtures/logs/', import.meta.url));
const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** The head checkout of a recorded case. */
async function fixtureWs(name: string): Promise<Workspace> {
  const { repo } = layOutCase(join(LOGS, name)) as { repo: string };
  made.push(repo);
  return openWorkspace(repo);
}

/** A small checkout of our own, for shapes the fixtures do not have. */
async function tempWs(files: Record<string, string>): Promise<Workspace> {
  const root = mkdtempSync(join(tmpdir(), 'redline-rel-'));
  made.push(root);
  for (const [f, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, f)), { recursive: true });
    writeFileSync(join(root, f), text);
  }
  return openWorkspace(root);
}

const sorted = (xs: string[]) => [...xs].sort();

describe('importsOf: JavaScript / TypeScript', () => {
  it('follows relative require() from a test to the source and on (jest-paginate-off-by-one)', async () => {
    const ws = await fixtureWs('jest-paginate-off-by-one');
    expect(importsOf(ws, 'test/orders.test.js')).toEqual(['src/orders.js']);
    expect(importsOf(ws, 'src/orders.js')).toEqual(['src/paginate.js']);
  });

  it('resolves ESM imports written with .js to .ts files, and skips packages (tsc-signature-change-call-site)', async () => {
    const ws = await fixtureWs('tsc-signature-change-call-site');
    expect(sorted(importsOf(ws, 'src/invoice.ts'))).toEqual(['src/money.ts']);
    expect(importsOf(ws, 'src/receipt.ts')).toContain('src/money.ts');
  });

  it("follows `require('../')` to the package's main file (tape-number-exponent-minimist's test/num.js → index.js)", async () => {
    const ws = await fixtureWs('tape-number-exponent-minimist');
    expect(importsOf(ws, 'test/num.js')).toContain('index.js');
  });

  it("resolves a folder to its package.json main, else its index file, and a main that does not parse to the index", async () => {
    const ws = await tempWs({
      'pkg/package.json': '{"main": "lib/entry"}',
      'pkg/lib/entry.js': 'module.exports = 1;\n',
      'plain/index.js': 'module.exports = 2;\n',
      'broken/package.json': '{"main": ',
      'broken/index.js': 'module.exports = 3;\n',
      'test/a.test.js': "require('../pkg'); require('../plain/'); require('../broken');\n",
    });
    expect(sorted(importsOf(ws, 'test/a.test.js'))).toEqual(['broken/index.js', 'pkg/lib/entry.js', 'plain/index.js']);
  });

  it('handles multi-line, type-only, re-export and dynamic imports, and index files', async () => {
    const ws = await tempWs({
      'src/a.ts': [
        "import {\n  one,\n  two,\n} from './b.js';",
        "import type { T } from './types';",
        "export { x } from './lib';",
        "const m = await import('./lazy.js');",
        "import fs from 'node:fs';",
        "import z from 'zod';",
      ].join('\n'),
      'src/b.ts': 'export const one = 1, two = 2;\n',
      'src/types.ts': 'export type T = 1;\n',
      'src/lib/index.ts': 'export const x = 1;\n',
      'src/lazy.tsx': 'export {};\n',
    });
    expect(sorted(importsOf(ws, 'src/a.ts'))).toEqual(['src/b.ts', 'src/lazy.tsx', 'src/lib/index.ts', 'src/types.ts']);
    expect(importsOf(ws, 'src/missing.ts')).toEqual([]);
  });
});

describe('importsOf: Python', () => {
  it('resolves `from pkg.mod import x` from tests/ (pytest-keyerror-in-source)', async () => {
    const ws = await fixtureWs('pytest-keyerror-in-source');
    const got = importsOf(ws, 'tests/test_orders.py');
    expect(got).toContain('inventory/orders.py');
    expect(got).toContain('inventory/store.py');
    expect(got.some((f) => f.startsWith('tests/'))).toBe(false);
  });

  it('resolves `from pkg import Name` to the package and relative `from .mod import x` (mypy-arg-type, pytest-assert-discount-threshold)', async () => {
    const cart = await fixtureWs('pytest-assert-discount-threshold');
    expect(importsOf(cart, 'tests/test_cart.py')).toContain('pricing/__init__.py');
    expect(importsOf(cart, 'pricing/cart.py')).toContain('pricing/discounts.py');
    const ship = await fixtureWs('mypy-arg-type');
    expect(importsOf(ship, 'src/shipping/cli.py')).toContain('src/shipping/quote.py');
  });

  it('reads a parenthesised import list over several lines', async () => {
    const ws = await tempWs({
      'app/__init__.py': '',
      'app/models.py': 'X = 1\n',
      'app/views.py': 'Y = 1\n',
      'tests/test_app.py': 'from app import (\n    models,  # the models\n    views,\n)\n\n\ndef test_x():\n    assert models.X\n',
    });
    expect(sorted(importsOf(ws, 'tests/test_app.py'))).toEqual(['app/__init__.py', 'app/models.py', 'app/views.py']);
  });
});

describe('importsOf: Go', () => {
  it('gives a test its whole package, not other packages or other tests (go-panic-index)', async () => {
    const ws = await fixtureWs('go-panic-index');
    expect(sorted(importsOf(ws, 'ring/ring_test.go'))).toEqual(['ring/ring.go', 'ring/stats.go']);
  });

  it('same package for a nested package (go-build-type-error)', async () => {
    const ws = await fixtureWs('go-build-type-error');
    expect(importsOf(ws, 'internal/money/money_test.go')).toEqual(['internal/money/money.go']);
  });
});

describe('importsOf: Java', () => {
  it('includes the same package across src/main and src/test (maven-npe-in-source)', async () => {
    const ws = await fixtureWs('maven-npe-in-source');
    const got = sorted(importsOf(ws, 'src/test/java/com/acme/orders/OrderHistoryTest.java'));
    expect(got).toEqual(
      ['Customer', 'Order', 'OrderHistory', 'ReceiptFormatter'].map((c) => `src/main/java/com/acme/orders/${c}.java`),
    );
  });

  it('follows imports across packages, and keeps a package to its own folder', async () => {
    const ws = await tempWs({
      'src/main/java/com/acme/a/Api.java': 'package com.acme.a;\nimport com.acme.b.Helper;\nimport static com.acme.c.Util.now;\nimport java.util.List;\nclass Api {}\n',
      'src/main/java/com/acme/a/Peer.java': 'package com.acme.a;\nclass Peer {}\n',
      'src/main/java/com/acme/b/Helper.java': 'package com.acme.b;\nclass Helper {}\n',
      'src/main/java/com/acme/c/Util.java': 'package com.acme.c;\nclass Util {}\n',
      'src/main/java/com/acme/xa/Other.java': 'package com.acme.xa;\nclass Other {}\n',
      'Main.java': 'class Main {}\n',
      'Tool.java': 'class Tool {}\n',
    });
    expect(sorted(importsOf(ws, 'src/main/java/com/acme/a/Api.java'))).toEqual(['src/main/java/com/acme/a/Peer.java', 'src/main/java/com/acme/b/Helper.java']);
    // The default package at the root is the root folder only, not every Java file of the repo.
    expect(importsOf(ws, 'Main.java')).toEqual(['Tool.java']);
  });
});

describe('importsOf: Ruby', () => {
  it('follows require_relative and require on the lib/ load path (rspec-keyerror-in-lib)', async () => {
    const ws = await fixtureWs('rspec-keyerror-in-lib');
    expect(sorted(importsOf(ws, 'lib/catalog.rb'))).toEqual(['lib/catalog/importer.rb', 'lib/catalog/product.rb']);
    expect(importsOf(ws, 'spec/spec_helper.rb')).toEqual(['lib/catalog.rb']);
    // By name: importer_spec.rb ↔ importer.rb.
    expect(importsOf(ws, 'spec/importer_spec.rb')).toEqual(['lib/catalog/importer.rb']);
  });
});

describe('importsOf: Rust', () => {
  it('`use crate_name::` from tests/ is the library root; `mod x;` is src/x.rs (cargo-test-assertion)', async () => {
    const ws = await fixtureWs('cargo-test-assertion');
    expect(importsOf(ws, 'tests/update.rs')).toEqual(['src/lib.rs']);
    expect(importsOf(ws, 'src/lib.rs')).toEqual(['src/parse.rs']);
  });

  it('`use crate::config` and `mod` in a binary crate (cargo-signature-change)', async () => {
    const ws = await fixtureWs('cargo-signature-change');
    expect(importsOf(ws, 'src/server.rs')).toEqual(['src/config.rs']);
    expect(sorted(importsOf(ws, 'src/main.rs'))).toEqual(['src/config.rs', 'src/server.rs']);
  });

  it('other crates and words in comments do not link to the library root', async () => {
    const ws = await tempWs({
      'Cargo.toml': '[package]\nname = "my-crate"\nversion = "0.1.0"\n\n[dependencies]\nserde = "1"\n',
      'src/lib.rs': 'pub mod parse;\n',
      'src/parse.rs': 'pub fn parse() {}\n',
      'src/main.rs': '// we use caret rules here\nuse serde::Deserialize;\nuse std::env;\nfn main() {}\n',
      'tests/it.rs': 'use my_crate::parse::parse;\n',
    });
    expect(importsOf(ws, 'src/main.rs')).toEqual([]);
    expect(importsOf(ws, 'tests/it.rs')).toEqual(['src/lib.rs']);
  });
});

describe('isTestFile', () => {
  it.each([
    'test/orders.test.js',
    '__tests__/notes.test.js',
    'src/a.spec.ts',
    'src/a.test.mts',
    'ring/ring_test.go',
    'tests/test_cart.py',
    'test_cart.py',
    'pkg/cart_test.py',
    'src/test/java/com/acme/OrderHistoryTest.java',
    'app/src/test/kotlin/FooTests.kt',
    'Foo.Tests/BarTests.cs',
    'spec/importer_spec.rb',
    'test/models/user_test.rb',
    'tests/update.rs',
  ])('%s is a test file', (f) => {
    expect(isTestFile(f)).toBe(true);
  });

  it.each(['src/orders.js', 'src/testing-utils.ts', 'lib/catalog/importer.rb', 'src/main/java/com/acme/Contest.java', 'ring/ring.go', 'pricing/cart.py', 'src/lib.rs', 'latest/x.ts', 'conftest.py'])(
    '%s is not',
    (f) => {
      expect(isTestFile(f)).toBe(false);
    },
  );
});

describe('importsOf: C and C++', () => {
  it('follows #include <lib/header> from a test into a header-only library (cpp-header-only-assertion)', async () => {
    const ws = await fixtureWs('cpp-header-only-assertion');
    expect(importsOf(ws, 'tests/test_ringbuf.cpp')).toEqual(['include/ringbuf/ringbuf.hpp']);
    // The standard library's headers are not the repo's.
    expect(importsOf(ws, 'include/ringbuf/ringbuf.hpp')).toEqual([]);
  });
});
