#!/usr/bin/env bash
# `make package-check`: prove that hammer-box installs the three ways npm offers, each from a fresh clone
# of the committed HEAD into an empty prefix, and that the installed command works:
#   1. make pack in a clone, then npm install -g <tarball> (the tarball holds only what the CLI needs, and
#      installing it runs no script of hammer-box's: no build step);
#   2. npm install -g . in a clone;
#   3. npm install -g --install-links git+file://<clone> (a git URL).
# Each installed CLI must print its version and help, run `doctor` (exit 0 or 3: a missing model server
# or image is a finding, not a broken install), speak of installing Docker, never of make targets,
# when no engine answers, load the Kubernetes client library (doctor --engine kubernetes), and write
# a `monitor --bundle` with its style sheets. Needs the npm
# registry; uses the engine only for the doctor runs.
# PACKAGE_CHECK=pack limits it to the first way (the quickest). HAMMER_ENGINE_LOCK names a lock file held
# (flock) while doctor uses the engine, for machines whose engine is shared.
set -euo pipefail
cd "$(dirname "$0")/.."
src=$(pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/hammer-box-package.XXXXXX")
trap 'rm -rf "$work"' EXIT
ways=${PACKAGE_CHECK:-pack,folder,git}
export npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false

fail() {
  echo "package-check: $*" >&2
  exit 1
}

# Run a command that uses the engine (under HAMMER_ENGINE_LOCK when set).
engine() {
  if [ -n "${HAMMER_ENGINE_LOCK:-}" ]; then flock "$HAMMER_ENGINE_LOCK" "$@"; else "$@"; fi
}

clone() {
  git clone -q --no-hardlinks "$src" "$work/$1"
  [ ! -e "$work/$1/dist" ] || fail "a fresh clone has dist/ (it must be built by npm, not committed)"
}

# The installed command at prefix $1 works: version, help, doctor, and Docker hints without make targets.
check_cli() {
  local bin="$1/bin/hammer-box" out status
  [ -x "$bin" ] || fail "$2: no executable $bin"
  out=$("$bin" --version) || fail "$2: hammer-box --version failed"
  [ "$out" = "$(node -p "require('$src/package.json').version")" ] || fail "$2: --version printed '$out'"
  "$bin" --help | grep -Eq '^  run \[options\]' || fail "$2: --help does not show the run command"
  status=0
  out=$(cd "$work" && engine "$bin" doctor 2>&1) || status=$?
  case $status in 0 | 3) ;; *) fail "$2: doctor exited $status: $out" ;; esac
  grep -q '^ok    config' <<<"$out" || fail "$2: doctor did not resolve the packaged default config: $out"
  status=0
  out=$(cd "$work" && DOCKER_HOST=unix://"$work"/no-engine.sock "$bin" doctor 2>&1) || status=$?
  [ "$status" = 3 ] || fail "$2: doctor without an engine exited $status"
  grep -q 'install and start Docker' <<<"$out" || fail "$2: no Docker install hint without an engine: $out"
  if grep -Eq "make (engine|gvisor|images|build)" <<<"$out"; then fail "$2: an installed CLI names a make target: $out"; fi
  # the Kubernetes client library loads on this Node (on Node 20 through the resolve hook that gives it
  # hammer-box's undici 7: npm nests undici 8 under it in an installed package); a cluster that refuses
  # the connection is the answer expected, a library that does not load is not
  local port
  port=$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')
  printf '%s\n' 'apiVersion: v1' 'kind: Config' 'current-context: x' \
    "clusters: [{name: c, cluster: {server: \"https://127.0.0.1:$port\"}}]" \
    'contexts: [{name: x, context: {cluster: c, user: u, namespace: default}}]' \
    'users: [{name: u, user: {token: package-check}}]' >"$work/kubeconfig"
  out=$(cd "$work" && KUBECONFIG="$work/kubeconfig" engine "$bin" doctor --engine kubernetes 2>&1) || true
  grep -q 'reading the cluster version failed: the cluster did not answer' <<<"$out" || fail "$2: the Kubernetes client library does not load: $out"
  # the monitor's assets ship with the package (monitor/, diff2html's style sheet from its dependency)
  mkdir -p "$work/repo-$3"
  HAMMER_STATE_KEY=package-check-state-key-0123456789abcdef "$bin" monitor --repo "$work/repo-$3" \
    --bundle "$work/bundle-$3" >/dev/null 2>&1 || fail "$2: monitor --bundle failed"
  for f in index.html assets/monitor.css assets/diff2html.min.css; do
    [ -s "$work/bundle-$3/$f" ] || fail "$2: monitor --bundle wrote no $f"
  done
  echo "package-check: $2: hammer-box $("$bin" --version) installed, runs doctor and writes a monitor bundle"
}

if [[ ,$ways, == *,pack,* ]]; then
  clone pack
  # as the README says: make pack builds dist/ once, and the tarball installs with no build step
  (cd "$work/pack" && make --no-print-directory pack >/dev/null)
  tgz=$(ls "$work"/pack/hammer-box-*.tgz)
  # what the tarball holds: the built CLI (no source maps), the runner, image contexts, configs, the
  # monitor's style sheet and live script, README and the docs/ pages it links to (with their images), LICENSE
  files=$(tar -tzf "$tgz" | sed 's#^package/##')
  unexpected=$(grep -Ev '^(package\.json|README\.md|docs/[^/]+\.md|docs/img/[^/]+\.png|LICENSE|dist/.+\.js|runner/[^/]+\.sh|images/.+|configs/[^/]+\.toml|monitor/[^/]+\.(css|js))$' <<<"$files" || true)
  [ -z "$unexpected" ] || fail "the tarball holds files the CLI does not need: $unexpected"
  grep -qx 'dist/cli/main.js' <<<"$files" || fail "the tarball has no dist/cli/main.js"
  grep -qx 'monitor/live.js' <<<"$files" || fail "the tarball has no monitor/live.js"
  grep -qx 'docs/README.md' <<<"$files" || fail "the tarball has no docs/README.md (the README links to docs/)"
  out=$(npm install -g --prefix "$work/prefix-pack" --foreground-scripts "$tgz" 2>&1) || fail "installing the tarball failed: $out"
  if grep -q "> hammer-box@" <<<"$out"; then fail "installing the tarball ran a script of hammer-box's: $out"; fi
  check_cli "$work/prefix-pack" "make pack + install" pack
fi

if [[ ,$ways, == *,folder,* ]]; then
  clone folder
  (cd "$work/folder" && npm install -g --silent --prefix "$work/prefix-folder" . >/dev/null)
  check_cli "$work/prefix-folder" "npm install -g ." folder
fi

if [[ ,$ways, == *,git,* ]]; then
  clone git
  # --install-links: without it npm installs a git dependency that has a prepare script globally as a
  # link into its own temporary clone, which it then deletes (npm/cli#6984, npm/cli#8440)
  npm install -g --silent --install-links --prefix "$work/prefix-git" "git+file://$work/git" >/dev/null
  check_cli "$work/prefix-git" "npm install -g <git url>" git
fi
