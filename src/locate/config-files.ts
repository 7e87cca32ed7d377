import type { Signal } from '../types.js';

/**
 * Workflow files, lockfiles and build or tool configuration: files a PR often touches beside the code,
 * and that a rare word of the log (`pytest`, `build`) or a diff hunk easily reaches, but that cause a
 * failure only when the error says so. Manifests that declare dependencies (package.json, pom.xml,
 * go.mod, Cargo.toml) are not here: a dependency failure is pinned there rightly.
 */
const CONFIG_FILE = new RegExp(
  String.raw`(?:^|/)(?:` +
    [
      String.raw`\.github/workflows/[^/]+`,
      String.raw`\.github/actions/.+/action\.ya?ml`,
      String.raw`\.gitlab-ci\.yml|\.travis\.yml|azure-pipelines\.ya?ml|Jenkinsfile|\.circleci/config\.yml|appveyor\.yml|\.drone\.yml|\.woodpecker\.ya?ml|bitbucket-pipelines\.yml|\.buildkite/[^/]+`,
      String.raw`\.git(?:ignore|attributes|modules)|\.dockerignore|\.editorconfig|\.npmignore|\.npmrc|\.nvmrc`,
      String.raw`package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|bun\.lockb?|Cargo\.lock|Gemfile\.lock|poetry\.lock|Pipfile\.lock|uv\.lock|pdm\.lock|composer\.lock|go\.sum|mix\.lock|pubspec\.lock|packages\.lock\.json|flake\.lock|Package\.resolved|Podfile\.lock|gradle\.lockfile|rebar\.lock|stack\.yaml\.lock|cabal\.project\.freeze|renv\.lock`,
      String.raw`CMakeLists\.txt|[^/]+\.cmake|CMakePresets\.json|meson\.build|configure\.ac|Makefile\.am|BUILD(?:\.bazel)?|WORKSPACE(?:\.bazel)?|MODULE\.bazel|\.bazelrc`,
      String.raw`phpunit\.xml(?:\.dist)?|phpstan\.neon(?:\.dist)?|\.php-cs-fixer(?:\.dist)?\.php|tox\.ini|setup\.cfg|pytest\.ini|\.coveragerc|\.pylintrc|\.flake8|mypy\.ini|noxfile\.py`,
      String.raw`(?:jest|vitest|karma|playwright|cypress|babel|webpack|rollup|vite)\.conf(?:ig)?\.[cm]?[jt]s|\.eslintrc(?:\.\w+)?|eslint\.config\.[cm]?[jt]s|\.prettierrc(?:\.\w+)?|\.stylelintrc(?:\.\w+)?|tsconfig(?:\.[\w-]+)?\.json|\.rubocop\.yml|\.golangci\.ya?ml|rustfmt\.toml|clippy\.toml|\.clang-(?:format|tidy)`,
      String.raw`codecov\.ya?ml|\.pre-commit-config\.yaml|renovate\.json5?|\.github/dependabot\.yml|\.mergify\.yml|sonar-project\.properties`,
    ].join('|') +
    ')$',
);

/** True for a workflow file, lockfile or build/tool configuration (see CONFIG_FILE). */
export function isConfigFile(file: string): boolean {
  return CONFIG_FILE.test(file);
}

/**
 * Whether the failure names `file`: a signal's path ends with it, or its name is in the evidence's text
 * or a signal's message. A workflow or config file is pinned only then (DESIGN.md §3a).
 */
export function namedByFailure(file: string, signals: readonly Signal[], evidenceText: readonly string[]): boolean {
  const base = file.slice(file.lastIndexOf('/') + 1);
  for (const s of signals) {
    if (s.kind === 'identifier') continue;
    const p = s.path?.replace(/\\/g, '/');
    if (p && (p === file || p.endsWith('/' + file) || (p.endsWith('/' + base) || p === base))) return true;
    if (s.message.includes(base)) return true;
  }
  return evidenceText.some((t) => t.includes(base));
}
