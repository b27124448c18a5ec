#!/usr/bin/env bash
# Make the local Docker engine offer gVisor as the OCI runtime "runsc", idempotently.
# 1. If the engine already offers runsc, do nothing.
# 2. Else, as root with a local dockerd: install runsc (Debian's package) when it is missing, add it
#    to /etc/docker/daemon.json ("runtimes", other keys kept), reload dockerd with SIGHUP (running
#    containers are not touched) and wait until the engine lists runsc.
# 3. Else fail (exit 3) with a message that says what to do.
#
# runsc is registered with --network=none: hammer-box sandboxes never have a network, so gVisor's
# own network stack stays off (it also cannot start in the root network namespace of some VMs).
#
# With --optional, step 3 prints the reason and exits 0: `make test` then leaves the gVisor tests out
# and says so (GVISOR=auto, the default for developers; CI sets GVISOR=1, which requires it).
set -euo pipefail

optional=0
[ "${1:-}" = "--optional" ] && optional=1
conf=${HAMMER_DOCKERD_CONFIG:-/etc/docker/daemon.json}
wait_s=${HAMMER_ENGINE_WAIT:-30}

offered() { docker info --format '{{json .Runtimes}}' 2>/dev/null | grep -q '"runsc"'; }

unavailable() {
  if [ "$optional" = 1 ]; then
    echo "gvisor: not set up ($1): the gVisor tests are left out; 'make gvisor' says how to set it up" >&2
    exit 0
  fi
  cat >&2 <<MSG
gvisor: the engine does not offer runsc, and it cannot be set up here: $1
        To use gVisor: install runsc (https://gvisor.dev/docs/user_guide/install/), add to the
        engine's daemon.json
          { "runtimes": { "runsc": { "path": "/usr/bin/runsc", "runtimeArgs": ["--network=none"] } } }
        and reload the engine (sudo kill -HUP \$(pidof dockerd)); then run 'make gvisor' again.
        To run the tests without gVisor: make test GVISOR=0
MSG
  exit 3
}

if offered; then
  echo "gvisor: the engine offers runsc ($(runsc --version 2>/dev/null | sed -n 1p))"
  exit 0
fi

[ -z "${DOCKER_HOST:-}" ] || unavailable "DOCKER_HOST=$DOCKER_HOST names an engine this script does not manage"
[ "$(uname -s)" = Linux ] || unavailable "gVisor runs on Linux engines only"
[ "$(id -u)" = 0 ] || unavailable "registering a runtime needs root"
pid=$(pgrep -x dockerd | head -n 1 || true)
[ -n "$pid" ] || unavailable "no local dockerd runs (run 'make engine' first)"

runsc=$(command -v runsc || true)
if [ -z "$runsc" ]; then
  command -v apt-get >/dev/null 2>&1 || unavailable "runsc is not installed and there is no apt-get to install it"
  echo "gvisor: installing runsc from the distribution's archive"
  export DEBIAN_FRONTEND=noninteractive
  { apt-get install -y -qq runsc >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq runsc >/dev/null; }; } ||
    unavailable "apt-get could not install runsc"
  runsc=$(command -v runsc) || unavailable "runsc is not on PATH after installing it"
fi

# Merge the runtime into the daemon's config; a file that is not JSON is never overwritten.
mkdir -p "$(dirname "$conf")"
node "$(dirname "$0")/gvisor-config.mjs" "$conf" "$runsc" || unavailable "could not update $conf"
echo "gvisor: registered runsc ($runsc) in $conf; reloading dockerd (pid $pid)"
kill -HUP "$pid"

for _ in $(seq 1 "$wait_s"); do
  if offered; then
    echo "gvisor: the engine offers runsc ($("$runsc" --version 2>/dev/null | sed -n 1p))"
    exit 0
  fi
  sleep 1
done
unavailable "dockerd did not list runsc within ${wait_s}s of the reload (see its log)"
