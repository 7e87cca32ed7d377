// Stands in for `@vscode/ripgrep` in the Action's bundle: the rg binary is copied next to the bundle
// (scripts/build-action.mjs), where the runner has no node_modules to resolve the platform package from.
import { fileURLToPath } from 'node:url';

export const rgPath = fileURLToPath(new URL('./rg', import.meta.url));
