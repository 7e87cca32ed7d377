import { defineConfig } from 'vitest/config';

// Fixtures hold recorded repos with their own *.test.* files: only our test/ folder is ours.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['fixtures/**', 'node_modules/**', 'dist/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
