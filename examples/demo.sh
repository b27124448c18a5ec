#!/usr/bin/env bash
# `make demo`: the whole hammer-box loop on examples/wordcount, with the model's answers played back
# from examples/wordcount/recorded (the replay provider), so it needs Docker but no model server.
# Copies the example into a fresh git repository at .demo/wordcount in the checkout (the previous
# demo's is replaced; `make clean` removes it), runs hammer-box on it, and shows the branch. Its
# temporary files are removed when it ends, whatever happens.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
example="$root/examples/wordcount"
main="$root/dist/cli/main.js"
if [[ ! -f "$main" ]]; then
  echo "demo: $main is missing; run 'make build' first" >&2
  exit 2
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/hammer-box-demo.XXXXXX")"
trap 'rm -rf "$work"' EXIT
repo="$root/.demo/wordcount"
rm -rf "$repo"
mkdir -p "$repo"
# the example's files only, never caches a local pytest run may have left there
(cd "$example/repo" && tar --exclude=.pytest_cache --exclude=__pycache__ -cf - .) | (cd "$repo" && tar -xf -)

# a plain repository on branch main with one commit, whatever the user's global git config says
# (no hooks, no signing, a fixed identity)
demo_git() {
  GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 git -C "$repo" \
    -c user.name="hammer-box demo" -c user.email="demo@hammer-box.invalid" \
    -c core.hooksPath=/dev/null -c commit.gpgSign=false "$@"
}
demo_git init --quiet
demo_git symbolic-ref HEAD refs/heads/main
demo_git add --all
demo_git commit --quiet -m "wordcount: a small library with a bug"

# the recorded answers, named by absolute path in a TOML string (backslashes and quotes escaped)
recorded="$example/recorded"
toml_path="${recorded//\\/\\\\}"
toml_path="${toml_path//\"/\\\"}"
printf '[model]\nreplay_run = "%s"\n' "$toml_path" > "$work/demo.toml"

echo "demo: running hammer-box on $repo (recorded answers from $recorded)" >&2
set +e
node "$main" run --repo "$repo" --directive "$example/DIRECTIVE.md" --provider replay --config "$work/demo.toml" --json > "$work/result.json"
code=$?
set -e

if [[ ! -s "$work/result.json" ]]; then
  echo "demo: hammer-box exited with $code and no result (see the messages above)" >&2
  exit "$code"
fi

# read the --json document with node (already required), not jq
field() { node -e 'const d = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); const v = d[process.argv[2]]; process.stdout.write(v === null || v === undefined ? "" : String(v));' "$work/result.json" "$1"; }
status="$(field status)"
reason="$(field reason)"
branch="$(field branch)"
summary="$(field summary_path)"

echo
echo "status:     $status${reason:+ ($reason)}"
echo "repository: $repo"
if [[ -n "$branch" ]]; then
  echo "branch:     $branch"
fi
echo "summary:    ${summary:-(not written)}"
echo "state:      $(field state_path)"
if [[ -n "$branch" ]]; then
  echo
  echo "git -C $repo log --oneline $branch"
  git -C "$repo" --no-pager log --oneline "$branch"
fi
exit "$code"
