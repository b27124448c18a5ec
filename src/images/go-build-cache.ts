// The go env image's warmed build cache. Go cannot use a read-only GOCACHE, and the sandbox's
// only writable places are /tmp and /workspace, so setup compiles the repository's packages and
// tests into GO_CACHE_SEED, and a `go` wrapper first on the env image's PATH copies that seed into
// the (tmpfs) GOCACHE the first time go runs in a sandbox. A wrapper rather than a longer default
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
 * Setup script lines (run in /workspace after the setup command) that warm GO_CACHE_SEED and
 * install the wrapper. Tests are compiled and linked but never run (`-exec /bin/true`), so no
 * repository code runs while setup has network; a base commit that does not compile warms what did.
 */
export function goBuildCacheSteps(): string[] {
  return [
    'hammer_go=$(command -v go)',
    `GOCACHE=${GO_CACHE_SEED} GOTMPDIR= "$hammer_go" test -exec /bin/true ./... >/dev/null 2>&1 || echo "hammer-box: some packages do not compile at the base commit; the go build cache is warmed in part"`,
    `mkdir -p ${GO_WRAPPER_DIR}`,
    `cat > ${GO_WRAPPER_DIR}/go <<'HAMMER_GO_WRAPPER'`,
    WRAPPER.trimEnd(),
    'HAMMER_GO_WRAPPER',
    `printf 'exec %s "$@"\\n' "$hammer_go" >> ${GO_WRAPPER_DIR}/go`,
    `chmod 0755 ${GO_WRAPPER_DIR}/go`,
  ];
}
