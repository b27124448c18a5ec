#!/usr/bin/env bash
# Make Chromium available for the monitor's browser tests (test/browser/), idempotently. They drive
# Debian's chromium headless through playwright-core, which never downloads a browser.
# 1. If the browser is there (HAMMER_CHROMIUM, default /usr/bin/chromium), do nothing.
# 2. Else, as root with apt-get: install Debian's chromium package.
# 3. Else fail (exit 3) saying what to do: the browser tests are part of make test, never skipped.
set -euo pipefail

browser="${HAMMER_CHROMIUM:-/usr/bin/chromium}"

unavailable() {
  cat >&2 <<MSG
chromium: $browser is missing, and it cannot be installed here: $1
          Install Debian's chromium (sudo apt-get install chromium), or set HAMMER_CHROMIUM to a
          Chromium or Chrome executable; the monitor's browser tests need one.
MSG
  exit 3
}

if [ -x "$browser" ]; then
  echo "chromium: $browser"
  exit 0
fi
[ "$browser" = /usr/bin/chromium ] || unavailable "HAMMER_CHROMIUM names a file that is not an executable"
[ "$(id -u)" = 0 ] || unavailable "installing it needs root"
command -v apt-get >/dev/null 2>&1 || unavailable "there is no apt-get to install it with"
echo "chromium: installing chromium from the distribution's archive"
export DEBIAN_FRONTEND=noninteractive
{ apt-get install -y -qq chromium >/dev/null 2>&1 ||
  { apt-get update -qq && apt-get install -y -qq chromium >/dev/null; }; } ||
  unavailable "apt-get could not install chromium"
[ -x "$browser" ] || unavailable "$browser is missing after installing chromium"
echo "chromium: $browser"
