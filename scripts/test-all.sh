#!/usr/bin/env bash
# `npm run test:all`: everything CI checks, on a fresh machine as on a used one. The bundles are
# built once (npm run package: dist/ and dist/tandem.vsix) and every suite uses them. Each phase
# prints its time as "== phase NAME: N s".
set -euo pipefail
cd "$(dirname "$0")/.."

phase() {
  local name="$1"
  shift
  local start=$SECONDS
  echo "== phase $name: starting"
  "$@"
  echo "== phase $name: $((SECONDS - start)) s"
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
trap keep_artifacts EXIT

phase packages bash scripts/install-packages.sh tests
phase package npm run --silent package
phase typecheck npm run --silent typecheck
phase lint npm run --silent lint
# The integration tests drive the bundles just packaged instead of building their own.
phase unit npx vitest run --project unit --project webview
phase integration env TANDEM_TEST_BUNDLES=dist npx vitest run --project integration
phase e2e-setup bash test/e2e/setup.sh
phase e2e node test/e2e/run.mjs
phase e2e-self-check node test/e2e/run.mjs --self-check
