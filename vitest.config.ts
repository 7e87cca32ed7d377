import { defineConfig } from 'vitest/config';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Fixtures hold recorded repos with their own *.test.* files: only our test/ folder is ours.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['fixtures/**', 'node_modules/**', 'dist/**'],
    testTimeout: 60_000,
    // diagnose caches tree-sitter tags on disk: tests keep theirs out of the user's cache.
    env: { REDLINE_CACHE_DIR: join(tmpdir(), `redline-test-cache-${process.pid}`) },
    hookTimeout: 60_000,
  },
});
