#!/bin/sh
# Build a minimal Debian trixie root filesystem with debootstrap and import it as a Docker image.
# Usage: debootstrap.sh <tag> [suite] [mirror]
# Needs root and debootstrap (installed from apt when missing). An imported image carries no ENV,
# so PATH, LANG and the default command are set with --change. HAMMER_DEBIAN_ARCH (set by hammer-box:
# the engine's architecture in Debian's name) must be this host's: debootstrap builds for the host.
set -eu
tag=${1:?usage: debootstrap.sh <tag> [suite] [mirror]}
suite=${2:-trixie}
mirror=${3:-http://deb.debian.org/debian}

if [ "$(id -u)" != 0 ]; then
  echo "debootstrap needs root; run as root or pull debian:$suite-slim instead" >&2
  exit 3
fi
if ! command -v debootstrap >/dev/null 2>&1; then
  echo "installing debootstrap"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null 2>&1 || {
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
  }
fi

if ! command -v docker >/dev/null 2>&1; then
  echo "the docker CLI is needed to import the image (docker import)" >&2
  exit 3
fi

arch=${HAMMER_DEBIAN_ARCH:-}
host_arch=$(dpkg --print-architecture 2>/dev/null || true)
if [ -n "$arch" ] && [ -n "$host_arch" ] && [ "$arch" != "$host_arch" ]; then
  echo "the engine is $arch but this host is $host_arch: debootstrap builds for this host only;" \
    "pull the base where a registry is reachable: docker pull debian:$suite-slim" >&2
  exit 3
fi

root=$(mktemp -d /tmp/hammer-box-rootfs.XXXXXX)
# On Ctrl-C or TERM remove the half-built root and stop (a plain trap would carry on afterwards).
trap 'rm -rf "$root" "$root.log" "$root.tar"' EXIT
trap 'exit 130' INT TERM
set --
[ -z "$arch" ] || set -- --arch "$arch"
echo "debootstrap --variant=minbase $* $suite ($mirror)"
debootstrap --variant=minbase "$@" "$suite" "$root" "$mirror" >"$root.log" 2>&1 || {
  tail -n 20 "$root.log" >&2; rm -f "$root.log"; exit 1
}
rm -f "$root.log"
# Keep the image small: package lists and caches are rebuilt by 'apt-get update' in child images.
rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/* "$root"/var/log/* 2>/dev/null || true
echo "importing as $tag"
# Through a file, not a pipe: plain sh has no pipefail, and a failed tar must not import half a root.
tar --numeric-owner -C "$root" -cf "$root.tar" .
docker import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'ENV LANG=C.UTF-8' \
  --change 'CMD ["/bin/sh"]' \
  --message "hammer-box base: debootstrap --variant=minbase $suite" \
  "$root.tar" "$tag"
