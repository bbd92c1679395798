#!/usr/bin/env bash
# npm run test:reliability: the reliability suite at the issue's full counts, then the final
# canary sweep, then docs/reliability.md from the figures; and the tests of `npm test` that
# run reduced there (the chat's kills mid-stream, tests/integration/chat-crash) at their full counts. Inside a private D-Bus session with an
# unlocked gnome-keyring (as .ci/run does), so the keychain section uses the real Secret Service.
set -euo pipefail
cd "$(dirname "$0")/../.."

# Figures of an earlier run must not end up in this report.
rm -f reliability-results/*.json
rm -rf "${RELIABILITY_ROOT:-${TMPDIR:-/tmp}}/relay-desktop-reliability"
export RELIABILITY_FULL=1

suite='npx vitest run --project reliability && npx tsx tests/reliability/canary-sweep.ts && npx vitest run --project node tests/integration/chat-crash.test.ts'
if command -v dbus-run-session >/dev/null 2>&1 && command -v gnome-keyring-daemon >/dev/null 2>&1; then
  dbus-run-session -- bash -c '
    keyring_home=$(mktemp -d)
    trap "rm -rf \"\$keyring_home\"" EXIT
    export XDG_DATA_HOME=$keyring_home RELAY_REQUIRE_KEYCHAIN=1
    echo -n ci | gnome-keyring-daemon --unlock --components=secrets >/dev/null
    '"$suite"'
  '
else
  echo "No dbus-run-session or gnome-keyring-daemon: the keychain section runs without a Secret Service." >&2
  bash -c "$suite"
fi

npx tsx tests/reliability/write-report.ts
