// Python's offline best effort, the last setup step when no package index answers: the project
// itself without its dependencies (or its sources on the path), every requirement the image already
// has kept, and every other one skipped with one line naming it (and what it is, for the tools
// tests never need: linters, formatters, type checkers, build and publishing tools). Whether the
// tests can run without what was skipped is decided on the host (see test-needs.ts).
import { createHash } from 'node:crypto';

/** What kind of tool a package is, for the skip line; only packages tests do not import. */
export const TOOL_KINDS: Readonly<Record<string, string>> = {
  flake8: 'a linter',
  pylint: 'a linter',
  ruff: 'a linter and formatter',
  pycodestyle: 'a linter',
  pyflakes: 'a linter',
  pydocstyle: 'a linter',
  bandit: 'a linter',
  'pep8-naming': 'a linter plugin',
  codespell: 'a spell checker',
  black: 'a formatter',
  isort: 'a formatter',
  autopep8: 'a formatter',
  yapf: 'a formatter',
  docformatter: 'a formatter',
  mypy: 'a type checker',
  pyright: 'a type checker',
  pytype: 'a type checker',
  'pyre-check': 'a type checker',
  build: 'a build tool',
  wheel: 'a build tool',
  twine: 'a publishing tool',
  'check-manifest': 'a packaging checker',
  flit: 'a build and publishing tool',
  hatch: 'a build and publishing tool',
  poetry: 'a build and publishing tool',
  bump2version: 'a release tool',
  bumpversion: 'a release tool',
  'pre-commit': 'a git hook manager',
  tox: 'a test environment manager',
  nox: 'a test environment manager',
  sphinx: 'a documentation tool',
  mkdocs: 'a documentation tool',
  coverage: 'a coverage tool',
  'pytest-cov': 'a coverage plugin',
  ipython: 'an interactive shell',
  ipdb: 'a debugger',
};

/** Name prefixes of tool families (`flake8-bugbear`, `types-requests`, `sphinx-rtd-theme`). */
export const TOOL_PREFIXES: readonly (readonly [string, string])[] = [
  ['flake8-', 'a linter plugin'],
  ['pylint-', 'a linter plugin'],
  ['types-', 'type stubs'],
  ['mypy-', 'a type checker plugin'],
  ['sphinx-', 'a documentation tool'],
  ['sphinxcontrib-', 'a documentation tool'],
  ['mkdocs-', 'a documentation tool'],
];

/** What a package is, when it is one of the tools tests never need; null otherwise. */
export function toolKind(name: string): string | null {
  const n = name.toLowerCase();
  if (Object.hasOwn(TOOL_KINDS, n)) return TOOL_KINDS[n]!;
  if (n.endsWith('-stubs')) return 'type stubs';
  return TOOL_PREFIXES.find(([p]) => n.startsWith(p))?.[1] ?? null;
}

/**
 * The step's script (run with the venv's python3 in the project's directory). Arguments:
 * `--requirements <file>...` (requirement files, nested -r followed), `--deps <file>` (one
 * requirement a line), `--project` (install the project itself, without dependencies),
 * `--source-root <dir>` (put on the path when the project cannot be built). Prints one
 * `hammer-box: skipped <name> (<kind>): ...` line per requirement it cannot have; exits 0.
 */
export const PYTHON_BEST_EFFORT = `import json, os, re, subprocess, sys
from importlib import metadata
try:
    from pip._vendor.packaging.requirements import Requirement
    from pip._vendor.packaging.utils import canonicalize_name
except Exception:
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

KINDS = json.loads(${JSON.stringify(JSON.stringify(TOOL_KINDS))})
PREFIXES = json.loads(${JSON.stringify(JSON.stringify(TOOL_PREFIXES))})

def kind(name):
    if name in KINDS: return KINDS[name]
    if name.endswith("-stubs"): return "type stubs"
    for p, k in PREFIXES:
        if name.startswith(p): return k
    return None

def lines_of(path, seen):
    path = os.path.normpath(path)
    if path in seen or not os.path.isfile(path): return []
    seen.add(path)
    out, pending = [], ""
    with open(path, encoding="utf-8", errors="replace") as f:
        for raw in f:
            line = re.sub(r"(^|\\s)#.*$", "", raw.rstrip("\\n"))
            if line.endswith("\\\\"):
                pending += line[:-1] + " "
                continue
            line = (pending + line).strip()
            pending = ""
            if not line: continue
            m = re.match(r"^(?:-r|--requirement)(?:\\s+|=)(\\S+)$", line)
            if m:
                out += lines_of(os.path.join(os.path.dirname(path), m.group(1)), seen)
                continue
            m = re.match(r"^(?:-e|--editable)(?:\\s+|=)(\\S+)$", line)
            if m:
                out.append(("editable", m.group(1)))
                continue
            if line.startswith("-"): continue
            out.append(("requirement", line))
    return out

args = sys.argv[1:]
reqs, project, source_root, mode = [], False, None, None
seen = set()
for a in args:
    if a in ("--requirements", "--deps"): mode = a; continue
    if a == "--project": project = True; mode = None; continue
    if a == "--source-root": mode = a; continue
    if mode == "--requirements": reqs += lines_of(a, seen)
    elif mode == "--deps":
        if os.path.isfile(a):
            reqs += [("requirement", l.strip()) for l in open(a, encoding="utf-8") if l.strip()]
    elif mode == "--source-root": source_root = a; mode = None

def pip(*more):
    return subprocess.run([sys.executable, "-m", "pip", "install", "--no-index", "--no-build-isolation", *more]).returncode == 0

def on_path(where):
    import sysconfig
    site = sysconfig.get_paths()["purelib"]
    with open(os.path.join(site, "hammer-box-sources.pth"), "w") as f:
        f.write(os.path.abspath(where) + "\\n")
    print(f"hammer-box: the project itself is not installed; its sources are used from {os.path.abspath(where)}")

def install_local(target):
    base = re.sub(r"\\[.*\\]$", "", target)
    if pip("--no-deps", "-e", base): return
    on_path(os.path.join(base, source_root) if source_root else base)

if project: install_local(".")
for what, text in reqs:
    if what == "editable":
        if text.startswith((".", "/")) and "://" not in text: install_local(text)
        else: print(f"hammer-box: skipped {text}: not available without a package index")
        continue
    if text.startswith((".", "/")):
        install_local(text)
        continue
    # per-requirement options (--hash=..., --config-settings) are pip's, not the requirement's
    text = re.split(r"\\s+--?[A-Za-z]", text)[0].strip()
    try:
        req = Requirement(text)
    except Exception:
        print(f"hammer-box: skipped {text[:80]}: not a requirement this step can read")
        continue
    if req.marker is not None and not req.marker.evaluate(): continue
    name = canonicalize_name(req.name)
    k = kind(name)
    label = f"{name} ({k})" if k else name
    try:
        have = metadata.version(name)
    except metadata.PackageNotFoundError:
        have = None
    if have is not None and not req.url and (not req.specifier or req.specifier.contains(have, prereleases=True)):
        continue
    if have is not None:
        print(f"hammer-box: kept {name} {have} from the image: {text} is not available without a package index")
        continue
    print(f"hammer-box: skipped {label}: {text} is not available without a package index")
`;

/** A short hash of the script, written into the setup script so a changed best-effort step gives a new env image. */
export function bestEffortVersion(): string {
  return createHash('sha256').update(PYTHON_BEST_EFFORT).digest('hex').slice(0, 12);
}
