#!/usr/bin/env bash
# Runs ShellCheck over every shell script of the project (make lint). Installs Debian's shellcheck when it
# is missing and this is a root shell with apt-get; otherwise says how to get it.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v shellcheck >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "lint: installing shellcheck (Debian package)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq shellcheck >/dev/null ||
      { apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq shellcheck >/dev/null; }
  else
    echo "lint: shellcheck is not installed; install it (apt-get install shellcheck, brew install shellcheck)" >&2
    exit 1
  fi
fi
# the runner runs under any POSIX sh (dash, busybox): checked as sh, not bash
shellcheck -s sh runner/hammer-runner.sh
shellcheck .ci/run scripts/*.sh examples/*.sh images/base/*.sh
echo "lint: shellcheck clean"
