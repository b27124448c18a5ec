#!/usr/bin/env bash
# Make Podman available for the Podman test (test/integration/podman.test.ts), idempotently: it checks
# that hammer-box refuses Podman's Docker-compatible API with a reason, against a real Podman.
# 1. If podman and catatonit (its init, which the test's containers use) are installed, do nothing.
# 2. Else, as root with apt-get: install both from the distribution's archive.
# 3. Else fail (exit 3) saying what to do; with --optional, print the reason and exit 0 (`make test`
#    then leaves the Podman test out and says so: PODMAN=auto, the default; CI sets PODMAN=1).
set -euo pipefail

optional=0
[ "${1:-}" = "--optional" ] && optional=1

unavailable() {
  if [ "$optional" = 1 ]; then
    echo "podman: not set up ($1): the Podman test is left out; 'make podman' says how to set it up" >&2
    exit 0
  fi
  cat >&2 <<MSG
podman: Podman is not installed, and it cannot be installed here: $1
        Install podman and catatonit (Debian/Ubuntu: sudo apt-get install podman catatonit),
        or run make test with PODMAN=0 to leave the Podman test out.
MSG
  exit 3
}

installed() { command -v podman >/dev/null 2>&1 && [ -x /usr/libexec/podman/catatonit ]; }

if installed; then
  echo "podman: $(podman --version)"
  exit 0
fi
[ "$(uname -s)" = Linux ] || unavailable "the Podman test runs rootful Podman on Linux only"
[ "$(id -u)" = 0 ] || unavailable "installing and running rootful Podman needs root"
command -v apt-get >/dev/null 2>&1 || unavailable "there is no apt-get to install it with"
echo "podman: installing podman and catatonit from the distribution's archive"
export DEBIAN_FRONTEND=noninteractive
{ apt-get install -y -qq podman catatonit >/dev/null 2>&1 ||
  { apt-get update -qq && apt-get install -y -qq podman catatonit >/dev/null; }; } ||
  unavailable "apt-get could not install podman and catatonit"
installed || unavailable "podman or /usr/libexec/podman/catatonit is missing after installing them"
echo "podman: $(podman --version)"
