# hammer-runner: the in-sandbox side of hammer-box. POSIX sh; needs only sh, git, tar and coreutils.
#
# Delivered per exec as:  sh -c "<this script>" hammer-runner <op> [args...]
# with the working directory at the repo root (/workspace). Because the script travels in argv, code
# that runs in the sandbox (the repo's tests) cannot change it between calls.
#
# Ops:
#   init [<paths-file> [<pack> <tree>]]
#                                 git init the workspace, neutralise attributes, commit "base": every
#                                 file, or exactly the NUL-separated paths listed in <paths-file>
#                                 (under .git/hammer/; so tests that ran before init add nothing).
#                                 With <pack> <tree>: the host placed <tree>'s objects as
#                                 .git/hammer/base.pack and .idx (pack checksum <pack>); the index is
#                                 read from <tree> and refreshed, which fails when any file differs
#                                 from it (nothing is hashed into new objects)
#   apply-check [flags] <patch>   git apply --check; git's message on stderr is the reason
#   apply [flags] <patch>         git apply (flags: --recount --ignore-whitespace --inaccurate-eof -pN -CN)
#   commit <message>              git add -A && git commit (fixed author and date, hooks off)
#   test <timeout-s> <command>    sh -c <command>; the result's exit is the command's exit code. Its
#                                 TMPDIR is .git/hammer-tmp, emptied before and after (programs may
#                                 run from it; /tmp is noexec; under the resident runner only before,
#                                 see run_tests); then what it left is killed and waited for ("settled")
#   diff [<rev>]                  git diff --binary --full-index <rev or base> HEAD
#   status                        git status --porcelain -z; the result says clean true/false
#   tree                          HEAD's tree and commit
#   reset [<commit>]              git reset --hard <commit or HEAD> && git clean -ffdx; empties the
#                                 tests' TMPDIR (.git/hammer-tmp). The result names the commit, and
#                                 HEAD's tree only when no commit was given
#   candidate <commit>            the work tree's change against <commit> (agent mode's submit): every
#                                 file git would add (the repository's ignores and a fixed list of
#                                 build and cache outputs left out), staged into a scratch index read
#                                 from <commit>, written as `git diff --binary --full-index` to
#                                 .git/hammer/candidate.patch; the result says its size ("bytes").
#                                 HEAD, the index and the tree are left as they are
#   restore <commit> [<patch>]    the work tree back to exactly <commit> plus a change (a chat's /undo,
#                                 a command's changes discarded in read-only mode, a resumed
#                                 conversation): reset as `reset` does, then `git apply` <patch> (a
#                                 file under .git/hammer/) to the work tree only: HEAD and the index
#                                 stay at <commit>, new files are untracked. A patch that does not
#                                 apply: exit 1, the tree left at <commit>
#   inspect <path>                what a workspace-relative path is, for the host's editor: "link":true
#                                 when any component is a symlink (then nothing more), "blocked":true
#                                 when a component above it is not a directory, else "exists", and for
#                                 a regular file "regular":true, its permission bits ("mode", octal
#                                 digits) and "size". Paths into .git are refused
#   step <head> <tree-state> <name> <message> <timeout-s> <command> <flags> <patch> [<flags> <patch>]...
#                                 one loop iteration in one exec: kill leftover processes (and wait until
#                                 they are gone), reset to <head> (skipped when <tree-state> is
#                                 "clean": the host's last op here was `reset <head>`, so no repo code
#                                 ran since), then for each candidate in turn (the apply ladder's rungs):
#                                 write its patch to .git/hammer/<name>.<k> and `git apply --index
#                                 <flags>` it. git applies all of a patch or nothing, so the first
#                                 that applies is the one taken: it is committed and the tests run. A
#                                 refused candidate wrote nothing; the tree is reset before the next
#                                 one all the same (a write that failed half way may have). <flags> is
#                                 one word list from the apply whitelist ("" for none).
#                                 Before the test output it prints "HAMMER_STAGE checked <k>" and
#                                 "HAMMER_STAGE applied <commit> [<tree>]", so the host can time each
#                                 phase and knows which candidate applied. The commit is read from
#                                 the ref files; the tree comes (from git) only when they cannot be
#                                 read: the host knows the commit its own tree makes. A refused candidate's git
#                                 message follows a "hammer-runner: check <k>" line on stderr. When
#                                 every candidate is refused: exit 1, applied false; else the exit is
#                                 the test command's and the result says "candidate":<k>.
#
# stdout ends with one line: HAMMER_RESULT {"op":"...","ok":true,"exit":0,...}. Its values are only
# op names, booleans, integers and hex hashes, all checked here before printing, never raw text.
# The process exit status equals "exit". Patch files live under .git/hammer/, outside the tree.
# test and step add "settled":true once every process the tests left is gone (false: some were
# still there after SETTLE_SECONDS). A runner that could not start a process (every pid of the
# sandbox's pids limit taken) ends with exit 71 and "fork":false instead of dying without a result.
#
# After the tests nothing here starts a process (no command substitution, no external command
# until the result is printed): a fork bomb may hold every pid, and sh gives up when it cannot fork.
#
# The sandbox is hostile territory: between two ops the repo's code may rewrite .git/config, plant
# hooks, filters or attributes. So every op re-asserts the neutralising attributes and every git call
# carries its safety settings on the command line, where repository config cannot override them.

set -u
LC_ALL=C
export LC_ALL
# How long test and step wait for the processes they killed to be gone.
SETTLE_SECONDS=20
# Only the variables set here steer git; whatever the environment carried is dropped.
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_OBJECT_DIRECTORY GIT_ALTERNATE_OBJECT_DIRECTORIES \
  GIT_COMMON_DIR GIT_NAMESPACE GIT_CEILING_DIRECTORIES GIT_DISCOVERY_ACROSS_FILESYSTEM \
  GIT_EXTERNAL_DIFF GIT_DIFF_OPTS GIT_CONFIG GIT_CONFIG_PARAMETERS GIT_CONFIG_COUNT GIT_SSH \
  GIT_SSH_COMMAND GIT_ASKPASS GIT_EXEC_PATH GIT_TEMPLATE_DIR GIT_TRACE GIT_TRACE2 GIT_ATTR_SOURCE 2>/dev/null
# the physical working directory, without a subshell (cd -P resolves links and sets PWD)
cd -P . || exit 70
ws=$PWD
GIT_DIR="$ws/.git"
GIT_WORK_TREE="$ws"
GIT_CONFIG_NOSYSTEM=1
GIT_CONFIG_GLOBAL=/dev/null
GIT_NO_REPLACE_OBJECTS=1
GIT_TERMINAL_PROMPT=0
GIT_OPTIONAL_LOCKS=0
GIT_PAGER='cat'
GIT_EDITOR=true
GIT_AUTHOR_NAME=hammer-box
GIT_AUTHOR_EMAIL=hammer-box@localhost
GIT_COMMITTER_NAME=hammer-box
GIT_COMMITTER_EMAIL=hammer-box@localhost
# A fixed date: the same patches on the same base always give the same commits.
GIT_AUTHOR_DATE='946684800 +0000'
GIT_COMMITTER_DATE='946684800 +0000'
export GIT_DIR GIT_WORK_TREE GIT_CONFIG_NOSYSTEM GIT_CONFIG_GLOBAL GIT_NO_REPLACE_OBJECTS \
  GIT_TERMINAL_PROMPT GIT_OPTIONAL_LOCKS GIT_PAGER GIT_EDITOR GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL \
  GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL GIT_AUTHOR_DATE GIT_COMMITTER_DATE

op=${1:-}
[ $# -gt 0 ] && shift

# git with every setting that could run code or change results pinned on the command line.
g() {
  git -c core.hooksPath=/dev/null -c core.fsmonitor=false -c core.untrackedCache=false \
    -c core.bare=false -c core.autocrlf=false -c core.safecrlf=false -c core.eol=lf \
    -c core.filemode=true -c core.symlinks=true -c core.ignoreCase=false -c core.sparseCheckout=false \
    -c core.checkStat=default -c core.trustctime=true -c core.quotePath=true -c core.pager=cat \
    -c core.editor=true -c "safe.directory=$ws" -c commit.gpgsign=false -c tag.gpgsign=false \
    -c i18n.commitEncoding=UTF-8 -c apply.whitespace=nowarn -c protocol.allow=never \
    -c gc.auto=0 -c maintenance.auto=false -c submodule.recurse=false -c status.showUntrackedFiles=all \
    -c user.name=hammer-box -c user.email=hammer-box@localhost "$@"
}

say() { printf 'hammer-runner: %s\n' "$*" >&2; }

is_int() { case $1 in '' | *[!0-9]*) return 1 ;; esac; }
is_hash() {
  case $1 in '' | *[!0-9a-f]*) return 1 ;; esac
  [ ${#1} -eq 40 ] || [ ${#1} -eq 64 ]
}

# result <exit> [key value]...: print the result line and exit with <exit>. Keys are literals of
# this script; a value is printed only if it is a hash, an integer or a boolean.
result() {
  r_exit=$1
  shift
  is_int "$r_exit" || r_exit=70
  r_ok=false
  [ "$r_exit" -eq 0 ] && r_ok=true
  r_extra=
  while [ $# -ge 2 ]; do
    if is_hash "$2"; then
      r_extra="$r_extra,\"$1\":\"$2\""
    elif is_int "$2" || [ "$2" = true ] || [ "$2" = false ]; then
      r_extra="$r_extra,\"$1\":$2"
    fi
    shift 2
  done
  r_done=1
  printf '\nHAMMER_RESULT {"op":"%s","ok":%s,"exit":%s%s}\n' "${op_name:-unknown}" "$r_ok" "$r_exit" "$r_extra"
  exit "$r_exit"
}

# pids_full: true when the sandbox's pids limit is (all but) used up, read from its cgroup (v2 or
# v1); false when it is not, or cannot be read. A pod's limit is kept in a cgroup above the
# container's (whose own reads "max"): then the limit the host names in HAMMER_PIDS_LIMIT applies.
pids_full() {
  for p_dir in /sys/fs/cgroup /sys/fs/cgroup/pids; do
    p_cur=
    p_max=
    { read -r p_cur <"$p_dir/pids.current" && read -r p_max <"$p_dir/pids.max"; } 2>/dev/null || continue
    [ "$p_max" = max ] && is_int "${HAMMER_PIDS_LIMIT:-}" && p_max=$HAMMER_PIDS_LIMIT
    is_int "$p_cur" && is_int "$p_max" || return 1
    [ "$p_cur" -ge $((p_max - 2)) ]
    return
  done
  return 1
}

# On an exit without a result (sh ends a script whose fork failed, with status 2): say that the
# runner could not start a process when the pids limit is the reason, rather than leave the host
# with no result at all.
on_exit() {
  [ -z "${r_done:-}" ] || return 0
  if pids_full; then
    say "could not start a process: the sandbox's pids limit is full"
    result 71 fork false
  fi
  say "stopped before its result"
  result 70
}
r_done=
trap on_exit EXIT

# Attributes that make every file plain bytes: no eol conversion, no filter/ident/encoding, and no
# diff or merge driver ("!diff" leaves diff unspecified, so text still diffs as text; "-diff" would
# turn every file into a binary patch). .git/info/attributes outranks any .gitattributes in the tree.
neutralise() {
  [ -d "$GIT_DIR" ] || return 0
  n_attr="$GIT_DIR/info/attributes"
  # the usual case starts no process: both directories there and no link on the way, so writing
  # the file in place cannot land anywhere else
  if [ -d "$GIT_DIR/info" ] && [ ! -L "$GIT_DIR/info" ] && [ -d "$GIT_DIR/hammer" ] && [ ! -L "$GIT_DIR/hammer" ] &&
    [ ! -L "$n_attr" ] && { [ ! -e "$n_attr" ] || [ -f "$n_attr" ]; }; then
    printf '%s\n' '* -text -eol -filter -ident !diff !merge -working-tree-encoding -whitespace' >"$n_attr" && return 0
  fi
  # a link (or a file) where a directory belongs goes, so nothing below writes through it
  for n_dir in "$GIT_DIR/info" "$GIT_DIR/hammer"; do
    if [ -L "$n_dir" ] || { [ -e "$n_dir" ] && [ ! -d "$n_dir" ]; }; then rm -f "$n_dir" 2>/dev/null; fi
  done
  rm -rf "$n_attr" 2>/dev/null
  mkdir -p "$GIT_DIR/info" "$GIT_DIR/hammer" || return 1
  printf '%s\n' '* -text -eol -filter -ident !diff !merge -working-tree-encoding -whitespace' \
    >"$GIT_DIR/info/attributes"
}

# The local config a fresh repo gets (belt and braces: every call also pins these with -c).
local_config() {
  g config core.hooksPath /dev/null &&
    g config core.fsmonitor false &&
    g config commit.gpgsign false &&
    g config core.autocrlf false &&
    g config user.name hammer-box &&
    g config user.email hammer-box@localhost
}

# A patch argument must be a regular file under .git/hammer/ (never part of the tree, never a link).
patch_path_ok() {
  case $1 in *..*) return 1 ;; .git/hammer/?* | "$ws"/.git/hammer/?*) ;; *) return 1 ;; esac
  [ -f "$1" ] && [ ! -L "$1" ]
}

# head_hashes: HEAD's commit and tree in h_commit and h_tree, from one git process (its answer goes
# through a file, so no subshell is forked for it).
head_hashes() {
  h_file="$GIT_DIR/hammer/hashes"
  g rev-parse 'HEAD^{commit}' 'HEAD^{tree}' -- >"$h_file" 2>/dev/null || return 1
  { read -r h_commit && read -r h_tree; } <"$h_file" 2>/dev/null || return 1
  is_hash "$h_commit" && is_hash "$h_tree"
}

# head_commit: HEAD's commit in h_commit, read from the ref files without a process: HEAD holds a
# hash, or names a loose ref under refs/heads/ holding one. 1 when it is anything else (a packed
# ref); the caller then asks git. Untrusted like everything here: the host checks it.
head_commit() {
  h_commit=
  { read -r h_head <"$GIT_DIR/HEAD"; } 2>/dev/null || return 1
  if is_hash "$h_head"; then
    h_commit=$h_head
    return 0
  fi
  case $h_head in
    'ref: refs/heads/'*) h_ref=${h_head#ref: } ;;
    *) return 1 ;;
  esac
  case "/$h_ref/" in */../* | */./* | *//*) return 1 ;; esac
  [ -f "$GIT_DIR/$h_ref" ] && [ ! -L "$GIT_DIR/$h_ref" ] || return 1
  { read -r h_commit <"$GIT_DIR/$h_ref"; } 2>/dev/null || return 1
  is_hash "$h_commit"
}

# empty_dir <dir>: true when <dir> is a directory (not a link) this user can use with nothing in it,
# looked at by the shell's own globbing (no process)
empty_dir() {
  [ -d "$1" ] && [ ! -L "$1" ] && [ -r "$1" ] && [ -w "$1" ] && [ -x "$1" ] || return 1
  e_noglob=
  case $- in *f*) e_noglob=1 ;; esac
  set +f
  e_empty=0
  for e_path in "$1"/* "$1"/.[!.]* "$1"/..?*; do
    if [ -e "$e_path" ] || [ -L "$e_path" ]; then
      e_empty=1
      break
    fi
  done
  [ -z "$e_noglob" ] || set -f
  return "$e_empty"
}

op_init() {
  # .git may hold only the host's .git/hammer/ files; an existing repository is refused
  if [ -e "$GIT_DIR/HEAD" ] || [ -L "$GIT_DIR" ] || { [ -e "$GIT_DIR" ] && [ ! -d "$GIT_DIR" ]; }; then
    say "init: $ws already has a repository"
    result 1
  fi
  if [ $# -gt 3 ] || [ $# -eq 2 ] || { [ $# -ge 1 ] && ! patch_path_ok "$1"; } ||
    { [ $# -eq 3 ] && ! { is_hash "$2" && is_hash "$3" && patch_path_ok "$GIT_DIR/hammer/base.pack" &&
      patch_path_ok "$GIT_DIR/hammer/base.idx"; }; }; then
    say "usage: init [<paths-file under .git/hammer/> [<pack hash> <tree>]]"
    result 2
  fi
  g -c init.defaultBranch=hammer init -q --template= "$ws" >/dev/null || result 1
  if ! { neutralise && local_config; }; then result 1; fi
  # -f: the host placed exactly the base tree, ignored-but-tracked files included. The objects live
  # only as long as the sandbox, so they are stored uncompressed (zlib dominates adding a large tree).
  if [ $# -eq 3 ]; then
    # the pack holds the tree the host archived: read the index from it, then refresh it, which
    # hashes each file and fails on any that differs (the baseline's tests ran first)
    { mv -f "$GIT_DIR/hammer/base.pack" "$GIT_DIR/objects/pack/pack-$2.pack" &&
      mv -f "$GIT_DIR/hammer/base.idx" "$GIT_DIR/objects/pack/pack-$2.idx"; } || result 1
    g read-tree "$3" || result 1
    g update-index --refresh >&2 || result 1
  elif [ $# -eq 1 ]; then
    g -c core.looseCompression=0 add -f --pathspec-from-file="$1" --pathspec-file-nul || result 1
  else
    g -c core.looseCompression=0 add -A -f || result 1
  fi
  g commit -q --no-verify --allow-empty --cleanup=verbatim -m base || result 1
  g update-ref refs/hammer/base HEAD || result 1
  head_hashes || result 1
  result 0 commit "$h_commit" tree "$h_tree"
}

# apply_flag <word>: append a whitelisted `git apply` flag to a_flags, or fail.
apply_flag() {
  case $1 in
    --recount | --ignore-whitespace | --inaccurate-eof | -p[0-9] | -C[0-9]) a_flags="$a_flags $1" ;;
    *) return 1 ;;
  esac
}

op_apply() {
  a_check=$1
  shift
  a_flags=
  while [ $# -gt 1 ]; do
    apply_flag "$1" || {
      say "unsupported apply flag: $1"
      result 2
    }
    shift
  done
  if [ $# -ne 1 ] || ! patch_path_ok "$1"; then
    say "the patch must be a regular file under .git/hammer/"
    result 2
  fi
  # shellcheck disable=SC2086 # a_flags holds only the whitelisted words above
  if [ "$a_check" = yes ]; then
    g apply --check $a_flags -- "$1" || result 1
  else
    g apply $a_flags -- "$1" || result 1
  fi
  result 0
}

op_commit() {
  if [ $# -ne 1 ] || [ -z "$1" ]; then
    say "usage: commit <message>"
    result 2
  fi
  g add -A || result 1
  g commit -q --no-verify --no-gpg-sign --cleanup=whitespace -m "$1" || result 1
  head_hashes || result 1
  result 0 commit "$h_commit" tree "$h_tree"
}

# my_uid: this shell's real uid in m_uid, read from /proc without starting a process.
my_uid() {
  m_uid=
  { while read -r m_key m_val _; do
    [ "$m_key" = Uid: ] && m_uid=$m_val && break
  done </proc/self/status; } 2>/dev/null
  is_int "$m_uid"
}

# uptime_cs: centiseconds since boot in u_cs (from /proc/uptime; no process started).
uptime_cs() {
  u_cs=
  { read -r u_up _ </proc/uptime; } 2>/dev/null || return 1
  u_int=${u_up%.*}
  u_frac=${u_up#*.}
  u_frac=${u_frac#0}
  is_int "$u_int" && is_int "${u_frac:-0}" || return 1
  u_cs=$((u_int * 100 + ${u_frac:-0}))
}

# others_left: true while a process of uid $m_uid other than this shell exists. A killed process
# counts until PID 1 has reaped it: only then is its pid free again.
others_left() {
  for l_dir in /proc/[0-9]*; do
    [ "${l_dir#/proc/}" = "$$" ] && continue
    l_uid=
    { while read -r l_key l_val _; do
      [ "$l_key" = Uid: ] && l_uid=$l_val && break
    done <"$l_dir/status"; } 2>/dev/null
    [ "$l_uid" = "$m_uid" ] && return 0
  done
  return 1
}

# Kill every process of this uid but this shell (what the tests left, daemons included) and wait,
# at most SETTLE_SECONDS, until all are gone and the pids limit has room again; 1 if they never
# are. The sandbox's idle keeper runs as another uid, and PID 1 is never signalled by kill -1. Only
# inside a sandbox: the host marks it with HAMMER_SANDBOX=1, and never as root (run as root
# elsewhere, kill -1 would signal every process of the machine). Starts no process: the loop only
# reads /proc (a fork bomb may hold every pid until it is dead). Under the resident runner
# (HAMMER_RESIDENT=1) the resident does this itself after every command (kill -1 here would kill
# it too) and reports to the host when some processes outlived it.
settle() {
  [ "${HAMMER_SANDBOX:-}" = 1 ] || return 0
  [ -z "${HAMMER_RESIDENT:-}" ] || return 0
  my_uid || return 1
  [ "$m_uid" != 0 ] || return 0
  uptime_cs || return 1
  k_end=$((u_cs + SETTLE_SECONDS * 100))
  while :; do
    kill -KILL -1 2>/dev/null || :
    others_left || pids_full || return 0
    uptime_cs && [ "$u_cs" -lt "$k_end" ] || return 1
  done
}

# restore_tree <rev>: index and work tree exactly at <rev>, whatever the tests left behind. Tests
# may leave unwritable directories (make the tree writable and try again) or a full workspace:
# reset needs room for the index, so then the work tree goes first and git writes it back.
restore_tree() {
  { g reset -q --hard "$1" && g clean -q -ffdx; } && return 0
  chmod -R u+rwX "$ws" 2>/dev/null
  { g reset -q --hard "$1" && g clean -q -ffdx; } && return 0
  for r_path in "$ws"/* "$ws"/.[!.]* "$ws"/..?*; do
    [ -e "$r_path" ] || [ -L "$r_path" ] || continue
    [ "$r_path" = "$ws/.git" ] || rm -rf -- "$r_path"
  done
  rm -f "$GIT_DIR/index.lock" "$GIT_DIR/index"
  g reset -q --hard "$1" && g clean -q -ffdx
}

# oom_kills: how many processes the kernel killed at this sandbox's memory limit so far (the
# memory cgroup's oom_kill counter, cgroup v1 or v2), in o_kills; empty when it cannot be read.
oom_kills() {
  o_kills=
  for o_file in /sys/fs/cgroup/memory/memory.oom_control /sys/fs/cgroup/memory.events; do
    [ -r "$o_file" ] || continue
    { while read -r o_key o_val; do
      [ "$o_key" = oom_kill ] && o_kills=$o_val && return 0
    done <"$o_file"; } 2>/dev/null
  done
}

# run_tests <timeout-s> <command>: the command's exit status in t_exit; then every process it left
# is killed and gone (t_settled true, or false if some outlived SETTLE_SECONDS). When the kernel
# killed a process at the memory limit meanwhile, stderr says so: an exit 137 alone reads like any
# other SIGKILL.
run_tests() {
  oom_kills
  t_oom=$o_kills
  # TMPDIR for the command: a fresh directory in the workspace volume, where programs may run (the
  # /tmp tmpfs is noexec, and toolchains execute what they build in their temp directory: rustdoc's
  # doctests, go test's binaries). Under .git, so git never tracks or cleans it. /tmp stays TMPDIR
  # only when the directory cannot be made (a full workspace).
  # An empty one left by the last run is taken as it is (no process started for it).
  t_tmp="$GIT_DIR/hammer-tmp"
  if empty_dir "$t_tmp"; then
    t_tmpdir=$t_tmp
  else
    if [ -e "$t_tmp" ] || [ -L "$t_tmp" ]; then rm -rf -- "$t_tmp" 2>/dev/null; fi
    if mkdir -m 0700 -- "$t_tmp" 2>/dev/null; then t_tmpdir=$t_tmp; else t_tmpdir=${TMPDIR:-/tmp}; fi
  fi
  # The host enforces the real timeout and kills the whole tree; timeout(1) is a backstop that
  # signals the command's process group (0 means none).
  if [ "$1" -gt 0 ] && command -v timeout >/dev/null 2>&1; then
    TMPDIR=$t_tmpdir timeout -k 5 "$1" sh -c "$2" </dev/null
  else
    TMPDIR=$t_tmpdir sh -c "$2" </dev/null
  fi
  t_exit=$?
  t_settled=true
  settle || {
    t_settled=false
    say "processes the tests started were still there ${SETTLE_SECONDS}s after being killed"
  }
  # rm is a process of its own: under the resident runner what the tests left (a fork bomb holding
  # every pid) is only killed once this runner has printed its result, so the directory stays until
  # the next test run removes it, above
  [ -n "${HAMMER_RESIDENT:-}" ] || rm -rf -- "$t_tmp" 2>/dev/null
  oom_kills
  if is_int "${t_oom:-x}" && is_int "${o_kills:-x}" && [ "$o_kills" -gt "$t_oom" ]; then
    say "out of memory: the kernel killed $((o_kills - t_oom)) test process(es) at the sandbox's memory limit (sandbox.memory); exit $t_exit"
  fi
}

op_test() {
  if [ $# -ne 2 ] || ! is_int "$1" || [ -z "$2" ]; then
    say "usage: test <timeout-seconds> <command>"
    result 2
  fi
  run_tests "$1" "$2"
  result "$t_exit" settled "$t_settled"
}

op_step() {
  if [ $# -lt 8 ] || [ $# -gt 22 ] || [ $(($# % 2)) -ne 0 ] || ! is_hash "$1" || ! is_int "$5" || [ -z "$4" ] || [ -z "$6" ]; then
    say "usage: step <head> <reset|clean> <name> <message> <timeout-seconds> <command> <flags> <patch> [<flags> <patch>]..."
    result 2
  fi
  set -f # the flag word lists are split below, never globbed
  s_head=$1
  case $2 in reset | clean) ;; *) say "step: the tree state is reset or clean"; result 2 ;; esac
  s_state=$2
  case $3 in '' | *[!A-Za-z0-9._-]* | .*) say "step: bad patch name"; result 2 ;; esac
  s_name=$3
  s_message=$4
  s_timeout=$5
  s_command=$6
  shift 6
  # every candidate's flags are checked before anything changes
  s_k=0
  for s_arg in "$@"; do
    s_k=$((s_k + 1))
    [ $((s_k % 2)) -eq 1 ] || continue
    a_flags=
    for s_word in $s_arg; do
      apply_flag "$s_word" || {
        say "step: unsupported apply flag: $s_word"
        result 2
      }
    done
  done
  # back to the commit the host accepted last (this also drops a patch only the sandbox took),
  # unless the host's own reset put it there and nothing ran since
  if [ "$s_state" != clean ]; then restore_tree "$s_head" || result 70; fi
  s_k=0
  s_applied=
  while [ $# -ge 2 ]; do
    s_k=$((s_k + 1))
    a_flags=
    for s_word in $1; do apply_flag "$s_word" || result 70; done
    s_patch=".git/hammer/$s_name.$s_k"
    if [ -e "$s_patch" ] || [ -L "$s_patch" ]; then rm -f "$s_patch"; fi
    printf '%s' "$2" >"$s_patch" || result 70
    shift 2
    say "check $s_k"
    # shellcheck disable=SC2086 # a_flags holds only whitelisted words
    if g apply --index $a_flags -- "$s_patch"; then
      s_applied=$s_k
      break
    fi
    [ $# -lt 2 ] || restore_tree "$s_head" || result 70
  done
  [ -n "$s_applied" ] || result 1 applied false
  printf 'HAMMER_STAGE checked %s\n' "$s_applied"
  g commit -q --no-verify --no-gpg-sign --cleanup=whitespace -m "$s_message" || result 70
  # the commit from the ref files (the host checks it is the one its own tree makes, which proves
  # the trees equal); git is asked, for the tree too, only when the refs are not plain files
  h_tree=
  head_commit || head_hashes || result 70
  printf 'HAMMER_STAGE applied %s%s\n' "$h_commit" "${h_tree:+ $h_tree}"
  run_tests "$s_timeout" "$s_command"
  result "$t_exit" applied true candidate "$s_applied" commit "$h_commit" tree "$h_tree" settled "$t_settled"
}

op_diff() {
  if [ $# -gt 1 ]; then
    say "usage: diff [<rev>]"
    result 2
  fi
  d_from=$(g rev-parse -q --verify "${1:-refs/hammer/base}^{commit}") || {
    say "diff: unknown revision"
    result 1
  }
  d_to=$(g rev-parse -q --verify 'HEAD^{commit}') || result 1
  # Every output-shaping option is explicit, so repository config cannot change the diff.
  g -c diff.relative=false diff --binary --full-index --no-color --no-ext-diff --no-textconv --no-renames \
    --src-prefix=a/ --dst-prefix=b/ -U3 --inter-hunk-context=0 --diff-algorithm=myers -O/dev/null \
    "$d_from" "$d_to" -- || result 1
  result 0 from "$d_from" to "$d_to"
}

op_status() {
  s_out="$GIT_DIR/hammer/status.$$"
  g status --porcelain=v1 -z --untracked-files=all --ignore-submodules=none >"$s_out" || {
    rm -f "$s_out"
    result 1
  }
  cat "$s_out"
  s_clean=true
  [ -s "$s_out" ] && s_clean=false
  rm -f "$s_out"
  result 0 clean "$s_clean"
}

op_tree() {
  head_hashes || result 1
  result 0 commit "$h_commit" tree "$h_tree"
}

op_reset() {
  if [ $# -gt 1 ] || { [ $# -eq 1 ] && ! is_hash "$1"; }; then
    say "usage: reset [<commit>]"
    result 2
  fi
  restore_tree "${1:-HEAD}" || result 1
  # the last test run's TMPDIR too, unless it is empty (the next one then starts without removing it)
  empty_dir "$GIT_DIR/hammer-tmp" || rm -rf -- "$GIT_DIR/hammer-tmp" 2>/dev/null
  # reset --hard <commit> left HEAD at that commit: git need not be asked (the tree only without one)
  [ $# -eq 0 ] || result 0 commit "$1"
  head_hashes || result 1
  result 0 commit "$h_commit" tree "$h_tree"
}

op_restore() {
  if [ $# -lt 1 ] || [ $# -gt 2 ] || ! is_hash "$1"; then
    say "usage: restore <commit> [<patch>]"
    result 2
  fi
  restore_tree "$1" || result 70
  empty_dir "$GIT_DIR/hammer-tmp" || rm -rf -- "$GIT_DIR/hammer-tmp" 2>/dev/null
  if [ $# -eq 2 ]; then
    patch_path_ok "$2" || {
      say "the patch must be a regular file under .git/hammer/"
      result 2
    }
    if ! g apply -- "$2"; then
      restore_tree "$1" || result 70
      result 1
    fi
  fi
  head_hashes || result 1
  result 0 commit "$h_commit" tree "$h_tree"
}

# Untracked build and cache outputs the toolchains' tools write into the tree, never part of a
# candidate (the repository's own ignores apply too).
CANDIDATE_EXCLUDES='__pycache__/
*.py[cod]
.pytest_cache/
.mypy_cache/
.ruff_cache/
.hypothesis/
.tox/
.nox/
.coverage
*.egg-info/
node_modules/
/target/'

op_candidate() {
  if [ $# -ne 1 ] || ! is_hash "$1"; then
    say "usage: candidate <commit>"
    result 2
  fi
  c_index="$GIT_DIR/hammer/candidate.index"
  c_patch="$GIT_DIR/hammer/candidate.patch"
  c_exclude="$GIT_DIR/hammer/candidate.exclude"
  rm -rf -- "$c_index" "$c_patch" "$c_exclude" 2>/dev/null
  printf '%s\n' "$CANDIDATE_EXCLUDES" >"$c_exclude" || result 1
  # a scratch index read from the commit: whatever the work tree's commands did to .git/index, HEAD
  # or the refs, the change is the work tree's against exactly that commit
  GIT_INDEX_FILE=$c_index g -c "core.excludesFile=$c_exclude" read-tree "$1" || result 1
  GIT_INDEX_FILE=$c_index g -c "core.excludesFile=$c_exclude" add -A || result 1
  GIT_INDEX_FILE=$c_index g -c diff.relative=false diff --cached --binary --full-index --no-color --no-ext-diff \
    --no-textconv --no-renames --src-prefix=a/ --dst-prefix=b/ -U3 --inter-hunk-context=0 \
    --diff-algorithm=myers -O/dev/null "$1" -- >"$c_patch" || result 1
  rm -f -- "$c_index"
  c_bytes=$(wc -c <"$c_patch") || result 1
  c_bytes=${c_bytes##* }
  result 0 bytes "$c_bytes"
}

op_inspect() {
  if [ $# -ne 1 ]; then
    say "usage: inspect <workspace-relative path>"
    result 2
  fi
  case "/$1/" in
    // | *//* | */./* | */../* | /.git/*)
      say "inspect: not a plain relative path outside .git"
      result 2
      ;;
  esac
  i_rest=$1
  i_at=$ws
  while :; do
    i_part=${i_rest%%/*}
    i_at="$i_at/$i_part"
    [ -L "$i_at" ] && result 0 link true
    [ "$i_part" = "$i_rest" ] && break
    i_rest=${i_rest#*/}
    [ -e "$i_at" ] || result 0 link false exists false
    [ -d "$i_at" ] || result 0 link false blocked true exists false
  done
  [ -e "$i_at" ] || result 0 link false exists false
  [ -f "$i_at" ] || result 0 link false exists true regular false
  # coreutils' stat asks with statx, which some runtimes refuse (gVisor's runsc 20221219: "Invalid
  # argument"); GNU find's -printf reads the same facts with fstatat
  i_stat=$(stat -c '%a %s' -- "$i_at" 2>/dev/null) || i_stat=$(find "$i_at" -prune -printf '%m %s' 2>/dev/null) ||
    result 1
  result 0 link false exists true regular true mode "${i_stat% *}" size "${i_stat#* }"
}

case $op in
  init | apply-check | apply | commit | test | diff | status | tree | reset | step | candidate | restore | inspect) op_name=$op ;;
  *)
    op_name=unknown
    say "unknown op"
    result 2
    ;;
esac

# step starts from a sandbox where nothing the earlier tests started is left (before anything that
# needs a process of its own)
if [ "$op" = step ] && ! settle; then
  say "step: processes left by earlier tests were still there ${SETTLE_SECONDS}s after being killed"
  result 71 settled false
fi

if [ "$op" != init ]; then
  [ -d "$GIT_DIR" ] || {
    say "$op: the workspace is not initialised"
    result 1
  }
  neutralise || result 1
fi

case $op in
  init) op_init "$@" ;;
  apply-check) op_apply yes "$@" ;;
  apply) op_apply no "$@" ;;
  commit) op_commit "$@" ;;
  test) op_test "$@" ;;
  diff) op_diff "$@" ;;
  status) op_status ;;
  tree) op_tree ;;
  reset) op_reset "$@" ;;
  step) op_step "$@" ;;
  candidate) op_candidate "$@" ;;
  restore) op_restore "$@" ;;
  inspect) op_inspect "$@" ;;
esac
