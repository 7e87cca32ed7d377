import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ToolContext } from '../../../src/locate/tools/tool.js';

/** A temp repo from a map of relative path → content. */
export function makeRepo(files: Record<string, string | Buffer>): string {
  const root = mkdtempSync(join(tmpdir(), 'redline-tools-'));
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), content);
  }
  return root;
}

/** A context whose spill records what was saved. */
export function spyContext(root: string): ToolContext & { spilled: Map<string, string> } {
  const spilled = new Map<string, string>();
  return {
    root,
    spilled,
    spill: async (name, content) => {
      spilled.set(name, content);
      return `artifacts/${name}`;
    },
  };
}
