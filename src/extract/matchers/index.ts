import type { Matcher } from './matcher.js';
import { tscMatcher } from './tsc.js';
import { eslintMatcher } from './eslint.js';
import { prettierMatcher } from './prettier.js';
import { jestMatcher } from './jest.js';
import { vitestMatcher } from './vitest.js';
import { nodeTestMatcher } from './node-test.js';
import { mochaMatcher } from './mocha.js';
import { v8FramesMatcher } from './frames-v8.js';
import { pytestMatcher } from './pytest.js';
import { unittestMatcher } from './unittest.js';
import { mypyMatcher } from './mypy.js';
import { flake8Matcher } from './flake8.js';
import { rspecMatcher } from './rspec.js';
import { pythonFramesMatcher } from './frames-python.js';
import { goMatcher } from './go.js';
import { goPanicMatcher } from './frames-go.js';
import { cargoMatcher } from './cargo.js';
import { rustBacktraceMatcher } from './frames-rust.js';
import { gccMatcher } from './gcc.js';
import { javacMatcher } from './javac.js';
import { mavenMatcher } from './maven.js';
import { gradleMatcher } from './gradle.js';
import { jvmFramesMatcher } from './frames-jvm.js';
import { dotnetMatcher } from './dotnet.js';
import { dotnetFramesMatcher } from './frames-dotnet.js';
// i14c: long-tail toolchains (one contiguous block)
import { sanitizerMatcher } from './sanitizers.js';
import { valgrindMatcher } from './valgrind.js';
import { phpunitMatcher } from './phpunit.js';
import { phpMatcher } from './php.js';
import { tapMatcher } from './tap.js';
import { cmakeMatcher } from './cmake.js';
import { ctestMatcher } from './ctest.js';
import { gtestMatcher } from './gtest.js';
import { minitestMatcher } from './minitest.js';
import { rubocopMatcher } from './rubocop.js';
import { exunitMatcher } from './exunit.js';
import { elixirMatcher } from './elixir.js';
import { eunitMatcher } from './eunit.js';
import { erlcMatcher } from './erlc.js';
import { ghcMatcher } from './ghc.js';
import { hspecMatcher } from './hspec.js';
import { pylintMatcher } from './pylint.js';
import { pythonFormatMatcher } from './python-format.js';
import { shellcheckMatcher } from './shellcheck.js';
import { testthatMatcher } from './testthat.js';
import { rCmdCheckMatcher } from './r-cmd-check.js';
import { bustedMatcher } from './busted.js';
import { doctestMatcher } from './doctest.js';
import { sassMatcher } from './sass.js';
import { stylelintMatcher } from './stylelint.js';
import { markdownlintMatcher } from './markdownlint.js';
import { linkCheckMatcher } from './link-check.js';
import { xctestMatcher } from './xctest.js';
import { clangTidyMatcher } from './clang-tidy.js';
import { jasmineMatcher } from './jasmine.js';
// end i14c
// p14m1: long-tail toolchains, part 3 (one contiguous block)
import { playwrightMatcher } from './playwright.js';
import { karmaMatcher } from './karma.js';
import { kotlincMatcher } from './kotlinc.js';
import { scalacMatcher } from './scalac.js';
import { dartAnalyzeMatcher } from './dart-analyze.js';
import { androidLintMatcher } from './android-lint.js';
import { swiftTestingMatcher } from './swift-testing.js';
import { cypressMatcher } from './cypress.js';
// end p14m1
// p14m2: more long-tail toolchains (one contiguous block)
import { terraformMatcher } from './terraform.js';
import { commonTestMatcher } from './common-test.js';
import { linkcheckerMatcher } from './linkchecker.js';
import { htmlprooferMatcher } from './htmlproofer.js';
import { hadolintMatcher } from './hadolint.js';
import { dockerBuildMatcher } from './docker-build.js';
import { clojureTestMatcher } from './clojure-test.js';
import { stackMatcher } from './stack.js';
import { bazelMatcher } from './bazel.js';
// end p14m2
// p14m: long-tail toolchains, part 4 (one contiguous block)
import { jshintMatcher } from './jshint.js';
import { gfortranMatcher } from './gfortran.js';
import { crystalMatcher } from './crystal.js';
// end p14m
// p14mat2: long-tail toolchains from published output (one contiguous block)
import { scalatestMatcher } from './scalatest.js';
import { swiftcMatcher } from './swiftc.js';
import { lycheeMatcher } from './lychee.js';
import { dartTestMatcher } from './dart-test.js';
import { xcprettyMatcher } from './xcpretty.js';
// end p14mat2
// p14jvm: JVM build tools (one contiguous block)
import { antMatcher } from './ant.js';
import { antJunitMatcher } from './ant-junit.js';
import { junitConsoleMatcher } from './junit-console.js';
import { jvmCrashMatcher } from './jvm-crash.js';
// end p14jvm
import { packageManagerMatcher } from './package-managers.js';
import { infraMatcher } from './infra.js';
import { genericErrorsMatcher } from './generic-errors.js';
import { workflowCommandsMatcher } from './workflow-commands.js';

export type { Matcher } from './matcher.js';

/** Every toolchain matcher, run over the failing step. Order does not matter: signals are merged by line. */
export const MATCHERS: readonly Matcher[] = [
  tscMatcher,
  eslintMatcher,
  prettierMatcher,
  jestMatcher,
  vitestMatcher,
  nodeTestMatcher,
  mochaMatcher,
  v8FramesMatcher,
  pytestMatcher,
  unittestMatcher,
  mypyMatcher,
  flake8Matcher,
  rspecMatcher,
  pythonFramesMatcher,
  goMatcher,
  goPanicMatcher,
  cargoMatcher,
  rustBacktraceMatcher,
  gccMatcher,
  javacMatcher,
  mavenMatcher,
  gradleMatcher,
  jvmFramesMatcher,
  dotnetMatcher,
  dotnetFramesMatcher,
  // i14c: long-tail toolchains
  sanitizerMatcher,
  valgrindMatcher,
  phpunitMatcher,
  phpMatcher,
  tapMatcher,
  cmakeMatcher,
  ctestMatcher,
  gtestMatcher,
  minitestMatcher,
  rubocopMatcher,
  exunitMatcher,
  elixirMatcher,
  eunitMatcher,
  erlcMatcher,
  ghcMatcher,
  hspecMatcher,
  pylintMatcher,
  pythonFormatMatcher,
  shellcheckMatcher,
  testthatMatcher,
  rCmdCheckMatcher,
  bustedMatcher,
  doctestMatcher,
  sassMatcher,
  stylelintMatcher,
  markdownlintMatcher,
  linkCheckMatcher,
  xctestMatcher,
  clangTidyMatcher,
  jasmineMatcher,
  // end i14c
  // p14m1: long-tail toolchains, part 3
  playwrightMatcher,
  karmaMatcher,
  kotlincMatcher,
  scalacMatcher,
  dartAnalyzeMatcher,
  androidLintMatcher,
  swiftTestingMatcher,
  cypressMatcher,
  // end p14m1
  // p14m2: more long-tail toolchains
  terraformMatcher,
  commonTestMatcher,
  linkcheckerMatcher,
  htmlprooferMatcher,
  hadolintMatcher,
  dockerBuildMatcher,
  clojureTestMatcher,
  stackMatcher,
  bazelMatcher,
  // end p14m2
  // p14m: long-tail toolchains, part 4
  jshintMatcher,
  gfortranMatcher,
  crystalMatcher,
  // end p14m
  // p14mat2: long-tail toolchains from published output
  scalatestMatcher,
  swiftcMatcher,
  lycheeMatcher,
  dartTestMatcher,
  xcprettyMatcher,
  // end p14mat2
  // p14jvm: JVM build tools
  antMatcher,
  antJunitMatcher,
  junitConsoleMatcher,
  jvmCrashMatcher,
  // end p14jvm
  packageManagerMatcher,
  infraMatcher,
  workflowCommandsMatcher,
  genericErrorsMatcher,
];
