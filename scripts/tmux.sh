#!/usr/bin/env bash
# Make tmux available for the terminal tests (test/terminal/: chat and plan driven through a real
# terminal), idempotently.
# 1. If tmux is on the PATH, do nothing.
# 2. Else, as root with apt-get: install Debian's tmux package.
# 3. Else fail (exit 3) saying what to do: the terminal tests are part of make test, never skipped.
set -euo pipefail

unavailable() {
  cat >&2 <<MSG
tmux: tmux is missing, and it cannot be installed here: $1
      Install it (sudo apt-get install tmux, or your system's package); the chat's terminal tests need it.
MSG
  exit 3
}

if command -v tmux >/dev/null 2>&1; then
  echo "tmux: $(tmux -V)"
  exit 0
fi
[ "$(id -u)" = 0 ] || unavailable "installing it needs root"
command -v apt-get >/dev/null 2>&1 || unavailable "there is no apt-get to install it with"
echo "tmux: installing tmux from the distribution's archive"
export DEBIAN_FRONTEND=noninteractive
{ apt-get install -y -qq tmux >/dev/null 2>&1 ||
  { apt-get update -qq && apt-get install -y -qq tmux >/dev/null; }; } ||
  unavailable "apt-get could not install tmux"
command -v tmux >/dev/null 2>&1 || unavailable "tmux is missing after installing it"
echo "tmux: $(tmux -V)"
