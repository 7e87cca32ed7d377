// Browser test runners serve sources by URL, so their frames name URLs: Cypress's spec bundle
// (`http://localhost:3000/__cypress/tests?p=cypress/e2e/a.cy.js`) and webpack source maps
// (`webpack://app/./cypress/e2e/a.cy.ts`, `webpack:///./src/a.ts`) carry the repository path inside.
const CYPRESS_SPEC = /\/__cypress\/tests\?p=([^&\s]+)$/;
const WEBPACK = /^webpack:\/\/[^/]*\/(?:\.\/)?(.+)$/;

/** The repository path a served source URL stands for, or null for any other URL or path (Cypress's own runner bundle included). */
export function servedSourcePath(url: string): string | null {
  const served = CYPRESS_SPEC.exec(url);
  if (served) {
    try {
      return decodeURIComponent(served[1]!).replace(/^\.\//, '');
    } catch {
      return null;
    }
  }
  const wp = WEBPACK.exec(url);
  return wp ? wp[1]! : null;
}
