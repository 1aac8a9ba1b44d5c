#!/usr/bin/env bash
# `npm run test:all`: everything CI checks, on a fresh machine as on a used one. The bundles are
# built once (npm run package: dist/ and dist/tandem.vsix) and every suite uses them. Each phase
# prints its time as "== phase NAME: N s".
set -euo pipefail
cd "$(dirname "$0")/.."

# Returns the command's status itself: in the suites' side-by-side phase, set -e does not apply.
phase() {
  local name="$1" rc=0
  shift
  local start=$SECONDS
  echo "== phase $name: starting"
  "$@" || rc=$?
  if [ "$rc" -eq 0 ]; then echo "== phase $name: $((SECONDS - start)) s"; else echo "== phase $name: FAILED (exit $rc) after $((SECONDS - start)) s"; fi
  return "$rc"
}

# The e2e screenshots (and a failing scenario's logs) are CI's artifacts: kept outside the clone,
# which CI throws away, even when a phase fails. TANDEM_ARTIFACTS_DIR chooses where.
keep_artifacts() {
  local from=test/e2e/.output
  [ -d "$from" ] || return 0
  local to="${TANDEM_ARTIFACTS_DIR:-${TMPDIR:-/tmp}/tandem-artifacts/$(date -u +%Y%m%dT%H%M%SZ)}"
  mkdir -p "$to" && cp -r "$from"/. "$to"/
  echo "== artifacts: $(find "$to" -name '*.png' | wc -l) screenshots in $to"
}
# A phase that fails stops the run: the background install of the e2e tools stops with it.
on_exit() {
  if [ -n "${setup_pid:-}" ]; then kill "$setup_pid" 2>/dev/null || true; fi
  keep_artifacts
}
trap on_exit EXIT

phase packages bash scripts/install-packages.sh tests

# The e2e tools (code-server and the browser driver, from npm) install while the single-threaded
# build and checks run on the other core; the e2e phase waits for them. Their log prints then.
setup_log="$(mktemp)"
bash test/e2e/setup.sh >"$setup_log" 2>&1 &
setup_pid=$!
setup_start=$SECONDS
e2e_tools() {
  local rc=0
  wait "$setup_pid" || rc=$?
  cat "$setup_log"
  echo "(installed in the background, started $((SECONDS - setup_start)) s ago)"
  return "$rc"
}

# Typecheck and lint (type-aware, so a TypeScript program of its own) each use one core: side by
# side they take the time of the longer. Each one's output prints when both are done.
checks() {
  local typecheck_log lint_log typecheck_pid lint_pid rc=0 start=$SECONDS
  typecheck_log="$(mktemp)"
  lint_log="$(mktemp)"
  npm run --silent typecheck >"$typecheck_log" 2>&1 &
  typecheck_pid=$!
  npm run --silent lint >"$lint_log" 2>&1 &
  lint_pid=$!
  if wait "$typecheck_pid"; then echo "typecheck: passed ($((SECONDS - start)) s)"; else rc=1; echo "typecheck: FAILED"; fi
  cat "$typecheck_log"
  if wait "$lint_pid"; then echo "lint: passed ($((SECONDS - start)) s)"; else rc=1; echo "lint: FAILED"; fi
  cat "$lint_log"
  rm -f "$typecheck_log" "$lint_log"
  return "$rc"
}

# The vitest suites keep both cores busy; the integration tests drive the bundles just packaged
# instead of building their own.
vitest_suites() {
  phase unit npx vitest run --project unit --project webview &&
    phase integration env TANDEM_TEST_BUNDLES=dist npx vitest run --project integration
}
# The e2e suite leaves the machine idle about 40% of the time (it waits on VS Code, the browser
# and scripted streams): measured with vmstat, 28 scenarios in 459 s alone.
e2e_suites() {
  phase e2e-setup e2e_tools &&
    phase e2e node test/e2e/run.mjs --retries 1 &&
    phase e2e-self-check node test/e2e/run.mjs --self-check
}
# Side by side, the vitest suites fill the e2e suite's idle time. They run at a lower priority,
# so the e2e scenarios get the CPU when they want it, as if they ran alone. Each side runs to its
# end (one failing does not stop the other), prints its lines with its name in front as they
# come, and the phase fails when either did.
suites() {
  local vitest_pid rc=0
  ( renice -n 10 -p "$BASHPID" >/dev/null && vitest_suites ) > >(sed -u 's/^/[vitest] /') 2>&1 &
  vitest_pid=$!
  e2e_suites > >(sed -u 's/^/[e2e] /') 2>&1 || rc=1
  wait "$vitest_pid" || rc=1
  return "$rc"
}

phase package npm run --silent package
phase typecheck-and-lint checks
phase suites suites
