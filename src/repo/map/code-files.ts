import type { Workspace } from '../workspace.js';
import { isExternalPath } from '../workspace.js';
import { MAX_MAP_FILES } from '../../limits.js';

const CODE = /\.(?:[cm]?[jt]sx?|py|go|rs|java|cs|c|h|cc|cpp|hpp|rb|php|sh|bash|kt)$/;
const GENERATED = /(^|\/)(dist|build|out|target|coverage|\.next|\.nuxt|__pycache__)\/|\.min\.js$|\.d\.ts$/;

/** The checkout's source files worth mapping: code, not dependencies, builds or minified bundles. */
export function codeFiles(ws: Workspace): string[] {
  return ws.files.filter((f) => CODE.test(f) && !GENERATED.test(f) && !isExternalPath(f)).slice(0, MAX_MAP_FILES);
}
