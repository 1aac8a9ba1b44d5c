#!/usr/bin/env bash
# The Debian packages Tandem and its tests need, in one list and one apt call.
#   install-packages.sh sandbox   what Tandem's command sandbox needs (run by `npm start`): if it
#                                 cannot install them it says what to install and exits 0, and
#                                 Tandem falls back to the command guard (and says so).
#   install-packages.sh tests     everything the test suites run for real (run by `npm run test:all`
#                                 and so by .ci/run): a failed install stops with exit 1.
# Quick and silent when everything is there; installs only what is missing.
set -euo pipefail
mode="${1:-}"
case "$mode" in sandbox | tests) ;; *) echo "usage: $0 sandbox|tests" >&2; exit 2 ;; esac
[ "$(uname -s)" = Linux ] || exit 0

# The command sandbox (bubblewrap, socat) and search_files' engine (ripgrep).
SANDBOX=(bubblewrap socat ripgrep)
# What the tests run besides: tmux gives the CLI tests a terminal; the security corpus runs its
# hostile cases with zsh (macOS's default shell), busybox, rsync, curl, wget, perl and python3;
# line-diff checks patches with GNU patch; the e2e suite drives Chromium and builds code-server's
# native modules against these headers.
TESTS=(tmux zsh busybox rsync curl wget perl python3 patch git chromium libkrb5-dev build-essential pkg-config)

wanted=("${SANDBOX[@]}")
[ "$mode" = tests ] && wanted+=("${TESTS[@]}")
missing=()
for pkg in "${wanted[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0

give_up() {
  if [ "$mode" = tests ]; then
    echo "The tests need ${missing[*]}: $1." >&2
    exit 1
  fi
  echo "Tandem's command sandbox needs ${missing[*]}: $1." >&2
  echo "Without them commands run unsandboxed, under the command guard only (Tandem says so)." >&2
  exit 0
}
command -v apt-get >/dev/null || give_up "install them with your package manager (Fedora: dnf install ${missing[*]})"
run=()
if [ "$(id -u)" != 0 ]; then
  command -v sudo >/dev/null || give_up "run as root: apt-get install ${missing[*]}"
  run=(sudo)
fi

echo "== apt: installing ${missing[*]}"
if ! { "${run[@]}" apt-get update -qq && "${run[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; }; then
  give_up "apt-get could not install them (see above); try: sudo apt-get install ${missing[*]}"
fi
