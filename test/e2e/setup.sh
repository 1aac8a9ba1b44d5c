#!/usr/bin/env bash
# Installs what Tandem's end-to-end tests need; safe to run again (it reuses what is there).
#   - Debian packages (scripts/install-packages.sh tests): chromium, ripgrep, code-server's build headers
#   - test/e2e/.tools: code-server 4.100.3, playwright-core, @axe-core/playwright and mocha, from the pinned manifest in test/e2e/tools/
# code-server 4.100.3 is the newest whose install script accepts Node 20 (VS Code 1.100.3).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
TOOLS="$HERE/.tools"
MANIFEST="$HERE/tools"
START_MS=$(( $(date +%s%N) / 1000000 ))
elapsed() { local ms=$(( $(date +%s%N) / 1000000 - START_MS )); printf '%d.%d' $((ms / 1000)) $((ms % 1000 / 100)); }

# --- Debian packages -------------------------------------------------------------------------
# chromium, ripgrep and code-server's build headers are in the project's one package list.
bash "$HERE/../../scripts/install-packages.sh" tests

# --- npm tools --------------------------------------------------------------------------------
# The stamp is the hash of the manifest and lockfile that were installed; a change reinstalls.
stamp() { cat "$MANIFEST/package.json" "$MANIFEST/package-lock.json" 2>/dev/null | sha256sum | cut -d' ' -f1; }
if [ -f "$TOOLS/.stamp" ] && [ "$(cat "$TOOLS/.stamp")" = "$(stamp)" ] \
   && [ -x "$TOOLS/node_modules/.bin/code-server" ] && [ -d "$TOOLS/node_modules/playwright-core" ]; then
  echo "== tools: reusing $TOOLS"
else
  echo "== tools: installing into $TOOLS (code-server takes about a minute)"
  rm -rf "$TOOLS/node_modules" "$TOOLS/.stamp"
  mkdir -p "$TOOLS/tmp"
  cp "$MANIFEST/package.json" "$TOOLS/package.json"
  [ -f "$MANIFEST/package-lock.json" ] && cp "$MANIFEST/package-lock.json" "$TOOLS/package-lock.json"
  # @vscode/ripgrep (inside code-server) downloads rg from GitHub at install time, which is unreachable:
  # seed its download cache (under os.tmpdir()) with Debian's rg instead.
  export TMPDIR="$TOOLS/tmp"
  RG_CACHE="$TMPDIR/vscode-ripgrep-cache-1.15.11"
  mkdir -p "$RG_CACHE" "$TMPDIR/rg-bin"
  cp /usr/bin/rg "$TMPDIR/rg-bin/rg"
  tar -czf "$RG_CACHE/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz" -C "$TMPDIR/rg-bin" rg
  export npm_config_unsafe_perm=true   # code-server's postinstall refuses to run as root without it
  export npm_config_yes=true           # node-pty's install runs `npx node-gyp`; answer its prompt
  export npm_config_nodedir=/usr       # build native modules against this machine's Node headers
  cd "$TOOLS"
  if [ -f package-lock.json ]; then INSTALL=(ci); else INSTALL=(install); fi
  if ! npm "${INSTALL[@]}" --no-audit --no-fund --foreground-scripts > install.log 2>&1; then
    echo "npm ${INSTALL[*]} failed; the last lines of $TOOLS/install.log:" >&2
    tail -n 30 install.log >&2
    exit 1
  fi
  # First install on a new manifest: keep the lockfile it produced next to the manifest.
  [ -f "$MANIFEST/package-lock.json" ] || cp package-lock.json "$MANIFEST/package-lock.json"
  stamp > .stamp
  rm -rf "$TMPDIR"
fi

echo "== code-server $(node -p "require('$TOOLS/node_modules/code-server/package.json').version")"
echo "== $(/usr/bin/chromium --version 2>/dev/null)"
echo "== playwright-core $(node -p "require('$TOOLS/node_modules/playwright-core/package.json').version"), mocha $(node -p "require('$TOOLS/node_modules/mocha/package.json').version")"
echo "== e2e setup done in $(elapsed)s"
