#!/usr/bin/env bash
# Make a Docker engine reachable, idempotently.
# 1. If DOCKER_HOST or the default socket answers, do nothing.
# 2. Else, as root on Debian/Ubuntu: install docker.io and start dockerd in the background
#    (log in ${HAMMER_DOCKERD_LOG:-/var/log/hammer-box-dockerd.log}) and wait until it answers.
# 3. Else fail with a message that says what to do.
set -euo pipefail

log=${HAMMER_DOCKERD_LOG:-/var/log/hammer-box-dockerd.log}
wait_s=${HAMMER_ENGINE_WAIT:-60}

answers() { docker version --format '{{.Server.Version}}' >/dev/null 2>&1; }

if answers; then
  echo "engine: Docker $(docker version --format '{{.Server.Version}}') answers${DOCKER_HOST:+ at $DOCKER_HOST}"
  exit 0
fi

if [ -n "${DOCKER_HOST:-}" ]; then
  echo "engine: DOCKER_HOST=$DOCKER_HOST is set but does not answer." >&2
  echo "        Start that engine, or unset DOCKER_HOST to use the local socket." >&2
  exit 3
fi

if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  cat >&2 <<MSG
engine: no Docker engine answers, and this machine cannot start one automatically
        (that needs root on Debian/Ubuntu). Start one of:
          - Docker Engine:   sudo systemctl start docker   (or install docker.io / docker-ce)
          - Docker Desktop:  open the app (macOS/Windows)
          - colima:          colima start
        (not Podman: hammer-box refuses it, see 'hammer-box doctor')
        then run 'make engine' again.
MSG
  exit 3
fi

if ! command -v dockerd >/dev/null 2>&1; then
  echo "engine: installing docker.io from the Debian archive"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq docker.io >/dev/null
fi
# The distribution's client may shadow nothing; keep whichever docker CLI is first on PATH.

if ! pgrep -x dockerd >/dev/null 2>&1; then
  echo "engine: starting dockerd (log: $log)"
  mkdir -p "$(dirname "$log")"
  nohup dockerd >>"$log" 2>&1 &
fi

for _ in $(seq 1 "$wait_s"); do
  if answers; then
    echo "engine: Docker $(docker version --format '{{.Server.Version}}') is up"
    exit 0
  fi
  sleep 1
done
echo "engine: dockerd did not answer within ${wait_s}s; last lines of $log:" >&2
tail -n 30 "$log" >&2 || true
exit 3
