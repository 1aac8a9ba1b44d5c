#!/usr/bin/env bash
# What Tandem's command sandbox needs on Linux (issue 12): bubblewrap (bwrap) and socat; and
# ripgrep, which search_files runs (it falls back to a slower search without it).
# Installs the missing Debian packages with apt (as root, or with sudo). Where it cannot, it says
# what to install and still exits 0: Tandem then reports the sandbox as unavailable, says why, and
# falls back to the command guard. Quick and silent when everything is there.
# Run by `npm start`, `npm run test:all` and .ci/run.
set -euo pipefail
[ "$(uname -s)" = Linux ] || exit 0

missing=()
command -v bwrap >/dev/null || missing+=(bubblewrap)
command -v socat >/dev/null || missing+=(socat)
command -v rg >/dev/null || missing+=(ripgrep)
[ ${#missing[@]} -eq 0 ] && exit 0

explain() {
  echo "Tandem's command sandbox needs ${missing[*]}: $1." >&2
  echo "Without them commands run unsandboxed, under the command guard only (Tandem says so)." >&2
  exit 0
}
command -v apt-get >/dev/null || explain "install them with your package manager (Fedora: dnf install bubblewrap socat ripgrep)"
run=()
if [ "$(id -u)" != 0 ]; then
  command -v sudo >/dev/null || explain "run as root: apt-get install ${missing[*]}"
  run=(sudo)
fi

echo "== apt: installing ${missing[*]} (the command sandbox)"
if ! { "${run[@]}" apt-get update -qq && "${run[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; }; then
  explain "apt-get could not install them (see above); try: sudo apt-get install ${missing[*]}"
fi
