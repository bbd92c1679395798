#!/usr/bin/env bash
# Installs what `npm test` needs besides npm packages, and says what it did: on Linux, Debian's
# Chromium headless shell (the e2e and reliability tests drive it; see tests/e2e/harness/browser.ts),
# Chromium (the benchmarks drive it), gnome-keyring (the Secret Service behind the OS keychain),
# D-Bus (the session bus the keyring talks over) and rclone (the sync tests' WebDAV server,
# `rclone serve webdav`). Run once on a fresh machine:
# `npm run test:setup`. `.ci/run` runs it too.
set -euo pipefail

if [[ $(uname -s) != Linux ]]; then
  echo "test:setup installs packages on Linux only. Elsewhere, point RELAY_E2E_CHROMIUM at a Chromium binary."
  exit 0
fi

missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v chromium-headless-shell >/dev/null 2>&1 || missing+=(chromium-headless-shell)
command -v gnome-keyring-daemon >/dev/null 2>&1 || missing+=(gnome-keyring)
command -v dbus-run-session >/dev/null 2>&1 || missing+=(dbus dbus-x11)
command -v rclone >/dev/null 2>&1 || missing+=(rclone)

if ((${#missing[@]} == 0)); then
  echo 'The tests have what they need: chromium, chromium-headless-shell, gnome-keyring, dbus and rclone are installed.'
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "Install these packages with your system's package manager: ${missing[*]}" >&2
  exit 1
fi

echo "Installing ${missing[*]} for the tests (apt-get)…"
sudo=()
if [[ $(id -u) -ne 0 ]]; then sudo=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq >/dev/null
"${sudo[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
echo "Installed ${missing[*]}."
