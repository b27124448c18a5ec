// The go env image's warmed build cache. Go cannot use a read-only GOCACHE, and the sandbox's
// only writable places are /tmp and /workspace, so setup compiles the packages the repository's
// code and tests import from its dependency modules and the standard library into GO_CACHE_SEED,
// and a `go` wrapper first on the env image's PATH copies that seed into the (tmpfs) GOCACHE the
// first time go runs in a sandbox. Never the repository's own packages: the env image is keyed by
// go.mod and go.sum, and a repository with the same ones reuses it, so nothing compiled from
// files outside that key may be in it (module sources are checked against go.sum). A wrapper rather than a longer default
// test command: it serves any test command that ends up running go (a configured one, make, a
// script), the recorded test command stays `go test ./...`, and the runner stays generic.

/** Where the env image keeps the build cache setup warmed (read-only in the sandbox). */
export const GO_CACHE_SEED = '/opt/hammer/go/cache';

/** The directory of the go wrapper; the env image puts it first on PATH. */
export const GO_WRAPPER_DIR = '/opt/hammer/bin';

/** The wrapper's body after its `exec <real go>` line is appended: seed GOCACHE once, when it fits in half the free space. */
const WRAPPER = `#!/bin/sh
# hammer-box: copy the env image's warmed build cache into the writable GOCACHE once, then run go
seed=${GO_CACHE_SEED}
if [ -n "\${GOCACHE:-}" ] && [ ! -e "$GOCACHE" ] && [ -d "$seed" ]; then
  need=$(du -sk "$seed" 2>/dev/null | cut -f1)
  free=$(df -Pk "$(dirname "$GOCACHE")" 2>/dev/null | { read -r _h; read -r _f _s _u avail _r; echo "\${avail:-0}"; })
  if [ -n "$need" ] && [ "$need" -lt $((free / 2)) ]; then
    cp -a "$seed" "$GOCACHE.$$" 2>/dev/null && mv -T "$GOCACHE.$$" "$GOCACHE" 2>/dev/null
    rm -rf "$GOCACHE.$$"
  fi
fi
`;

/**
 * `go list` template: the import paths of standard-library packages and of packages of dependency
 * modules, but not the main module's (or a workspace's) and not a module `replace`d by a directory
 * of the repository (it has no version): their code is not covered by the key.
 */
const DEPENDENCY_PACKAGES =
  '{{if .Module}}{{if not .Module.Main}}{{if or (not .Module.Replace) .Module.Replace.Version}}{{.ImportPath}}{{end}}{{end}}{{else if .Standard}}{{.ImportPath}}{{end}}';

/**
 * Setup script lines (run in /workspace after the setup command) that warm GO_CACHE_SEED with the
 * dependency and standard-library packages the repository's packages and tests import, and install
 * the wrapper. Listing the imports runs nothing and downloads nothing (GOPROXY=off, -mod=readonly,
 * a throwaway cache); compiling builds only those packages, from the module cache `go mod download`
 * filled. A dependency that does not compile warms what did.
 */
export function goBuildCacheSteps(): string[] {
  const offline = 'GOFLAGS=-mod=readonly GOPROXY=off GOTMPDIR=';
  return [
    'hammer_go=$(command -v go)',
    'hammer_list_cache=$(mktemp -d)',
    `hammer_deps=$(GOCACHE="$hammer_list_cache" ${offline} "$hammer_go" list -e -deps -test -f '${DEPENDENCY_PACKAGES}' ./... 2>/dev/null | grep -v ' ' | sort -u || true)`,
    'rm -rf "$hammer_list_cache"',
    `if [ -n "$hammer_deps" ]; then printf '%s\\n' "$hammer_deps" | GOCACHE=${GO_CACHE_SEED} ${offline} xargs "$hammer_go" build >/dev/null 2>&1 || echo "hammer-box: some dependencies do not compile; the go build cache is warmed in part"; fi`,
    `mkdir -p ${GO_WRAPPER_DIR}`,
    `cat > ${GO_WRAPPER_DIR}/go <<'HAMMER_GO_WRAPPER'`,
    WRAPPER.trimEnd(),
    'HAMMER_GO_WRAPPER',
    `printf 'exec %s "$@"\\n' "$hammer_go" >> ${GO_WRAPPER_DIR}/go`,
    `chmod 0755 ${GO_WRAPPER_DIR}/go`,
  ];
}
