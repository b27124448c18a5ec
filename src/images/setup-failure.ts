// Why a dependency setup failed, told from its output: which step (the script announces each one)
// and which kind of failure (network or TLS, build backend, resolution, the project's own code),
// with a hint that matches. Pure: the setup container's output lines in, a message out.

/** The kinds of setup failure, each with its own hint. */
export type SetupFailureKind =
  | 'network'
  | 'tls'
  | 'proxy_denied'
  | 'backend'
  | 'lockfile'
  | 'resolution'
  | 'project'
  | 'no_space'
  | 'memory'
  | 'unknown';

/** One step of a setup as its output told it. */
export interface SetupStepRecord {
  n: number;
  name: string;
  outcome: 'succeeded' | 'failed' | 'skipped' | 'unfinished';
  kind: SetupFailureKind | null;
  /** The output line that decided the kind. */
  evidence: string | null;
}

const PATTERNS: readonly [SetupFailureKind, RegExp][] = [
  ['no_space', /No space left on device|\bENOSPC\b|Disk quota exceeded|\bEDQUOT\b/i],
  [
    'tls',
    /CERTIFICATE_VERIFY_FAILED|certificate verify failed|SSLError|SSL: |self[- ]signed certificate|UNABLE_TO_GET_ISSUER_CERT|unable to get local issuer certificate/i,
  ],
  [
    'proxy_denied',
    /Tunnel connection failed: 403|CONNECT tunnel failed, response 403|\b403 Filtered\b|Access denied|Proxying refused/i,
  ],
  [
    'network',
    /package index .* is not reachable|NewConnectionError|Failed to establish a new connection|Max retries exceeded|ProxyError|Tunnel connection failed|Name or service not known|Temporary failure in name resolution|Network is unreachable|Connection refused|getaddrinfo|network request .* failed|dial tcp|Could not resolve host|Connection timed out/i,
  ],
  ['network', /\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|ECONNRESET)\b/],
  [
    'backend',
    /BackendUnavailable|Cannot import '[\w.]+'|No module named '(flit_core|hatchling|setuptools|poetry|pdm|maturin|scikit_build_core|mesonpy|setuptools_scm|hatch_vcs|wheel)|invalid pyproject\.toml config|configuration error: `project\.|must be valid exactly by one definition|requires a different Python|build-backend|unsupported.*license|License classifiers have been superseded/i,
  ],
  [
    'lockfile',
    /are in sync\. Please update your lock file|from lock file|Invalid: lock file's|ERR_PNPM_OUTDATED_LOCKFILE|ERR_PNPM_LOCKFILE_|YN0028|The lockfile would have been modified|Your lockfile needs to be updated|lockfile needs to be updated, but yarn was run with `--frozen-lockfile`/,
  ],
  [
    'resolution',
    /ResolutionImpossible|No matching distribution found|Could not find a version that satisfies|conflicting dependencies|\(from versions: none\)|ERESOLVE|No matching version found|failed to select a version|could not find `[^`]+` in registry/i,
  ],
  [
    'project',
    /Traceback \(most recent call last\)|subprocess-exited-with-error|metadata-generation-failed|error: metadata|SyntaxError|setup\.py/i,
  ],
];

/** The failure kind a block of output shows, and the line that shows it (the first kind in PATTERNS order wins). */
export function classifyOutput(lines: readonly string[]): { kind: SetupFailureKind; evidence: string | null } {
  for (const [kind, re] of PATTERNS) {
    const hit = lines.find((l) => re.test(l));
    if (hit !== undefined) return { kind, evidence: hit.trim().slice(0, 300) };
  }
  return { kind: 'unknown', evidence: null };
}

const ANNOUNCE = /^hammer-box: setup step (\d+) of (\d+): (.*)$/;
/** A requirement an offline best effort could not have: `hammer-box: skipped flake8 (a linter): flake8 is not ...`. */
const SKIPPED =
  /^hammer-box: skipped ((?:@[a-z0-9][a-z0-9._-]{0,60}\/)?[A-Za-z0-9][A-Za-z0-9._-]{0,99})(?: \(([a-z][a-z ,]{0,60})\))?: /;
/** The most skipped requirements remembered. */
const MAX_SKIPPED = 200;
/** A drift setup worked around and says so: `hammer-box: drift: npm ci refused package-lock.json ...`. */
const DRIFT = /^hammer-box: drift: (.+)$/;
/** The most drift lines remembered, and the longest kept. */
const MAX_DRIFT = 5;
const MAX_DRIFT_CHARS = 600;

/** A requirement setup skipped: its name and, for a tool tests never need, what it is. */
export interface SkippedRequirement {
  name: string;
  kind: string | null;
}
const RESULT = /^hammer-box: setup step (\d+) (succeeded|failed|skipped)(?:: (.*))?$/;

/** Lines of each step kept for classification. */
const STEP_LINES = 400;

/** npm's error lines: `npm error <text>` (npm 9 and later) or `npm ERR! <text>`. */
const NPM_ERROR = /^npm (?:error|ERR!) ?(.*)$/;
/** npm error lines that carry no reason: the code, the log's path, empty ones. */
const NPM_NOISE =
  /^(?:code |errno |syscall |path |dest |signal |command |A complete log|Log files were not written|\S*\/_logs\/|$)/;
/** What other package managers and build tools print when they fail, the reason in the group. */
const OTHER_REASONS: readonly RegExp[] = [
  /\b(ERR_PNPM_[A-Z0-9_]+\b.*)$/, // pnpm
  /^error (?!Command failed with exit code)(.+)$/, // yarn classic
  /^(?:➤ )?(YN0(?:028|001|018|060|002|009)\b.*)$/, // yarn berry: lockfile, exceptions, checksums, builds
  /^ERROR: (.+)$/, // pip
  /^error(?:\[E\d+\])?: (.+)$/, // cargo
  /^(go: .*(?:error|cannot|missing|invalid|not found|mismatch|verifying).*)$/, // go
];
/** Reason lines kept, and the longest. */
const MAX_REASONS = 6;
const MAX_REASON_CHARS = 300;

/**
 * A package manager's own words for why it failed, read from its output as it streams: npm's error
 * lines up to its usage text (npm prints the usage of the command after an EUSAGE, which buries the
 * reason: "`npm ci` can only install packages when your package.json and package-lock.json ... are
 * in sync", "Missing: x@1.0.0 from lock file"), pnpm's ERR_PNPM_ lines, yarn's, pip's, cargo's and
 * go's error lines.
 */
export class PackageManagerReason {
  private readonly lines: string[] = [];
  private inUsage = false;
  /** Whether the last non-empty npm error line was kept as a reason. */
  private lastNpmKept = false;

  /** Take one output line. */
  add(line: string): void {
    const text = line.replace(/\s+$/, '');
    const npm = NPM_ERROR.exec(text);
    let reason: string | null = null;
    if (npm) {
      const payload = npm[1]!.trim();
      if (payload === '') return;
      if (payload === 'Usage:') {
        // the line before "Usage:" is the command's one-line description ("Clean install a project")
        if (this.lastNpmKept) this.lines.pop();
        this.inUsage = true;
      } else if (/^Run "npm help/.test(payload)) this.inUsage = false;
      else if (!this.inUsage && !NPM_NOISE.test(payload)) reason = payload;
      this.lastNpmKept = reason !== null && this.keep(reason);
      return;
    }
    this.inUsage = false;
    for (const re of OTHER_REASONS) {
      const m = re.exec(text);
      if (m) {
        this.keep(m[1]!.trim());
        return;
      }
    }
  }

  /** The reason lines, in order. */
  reasons(): string[] {
    return [...this.lines];
  }

  private keep(reason: string): boolean {
    const cut = reason.slice(0, MAX_REASON_CHARS);
    if (this.lines.length >= MAX_REASONS || this.lines.includes(cut)) return false;
    this.lines.push(cut);
    return true;
  }
}

/** An output tail without npm's usage text (from the command's description before "Usage:" to "Run \"npm help ...\""). */
export function withoutUsageText(tail: readonly string[]): string[] {
  const out: string[] = [];
  let inUsage = false;
  for (const line of tail) {
    const payload = NPM_ERROR.exec(line.trimEnd())?.[1]?.trim();
    if (payload === 'Usage:') {
      // drop the empty npm lines before it and the command's description
      while (out.length > 0 && NPM_ERROR.exec(out.at(-1)!.trimEnd())?.[1]?.trim() === '') out.pop();
      if (out.length > 0 && NPM_ERROR.test(out.at(-1)!)) out.pop();
      inUsage = true;
      continue;
    }
    if (inUsage) {
      if (payload !== undefined && /^Run "npm help/.test(payload)) inUsage = false;
      if (payload !== undefined) continue;
      inUsage = false;
    }
    out.push(line);
  }
  return out;
}

/** Collects setup output by step; feed every line, then read the steps. */
export class SetupLog {
  private readonly steps: { n: number; name: string; outcome: SetupStepRecord['outcome']; lines: string[] }[] = [];
  /** Lines before any step (the index probe, the venv). */
  private readonly preamble: string[] = [];
  private readonly skippedList: SkippedRequirement[] = [];
  private readonly driftList: string[] = [];
  private readonly reason = new PackageManagerReason();

  /** Take one output line. */
  add(line: string): void {
    this.reason.add(line);
    const d = DRIFT.exec(line);
    if (d && this.driftList.length < MAX_DRIFT) this.driftList.push(d[1]!.trim().slice(0, MAX_DRIFT_CHARS));
    const s = SKIPPED.exec(line);
    if (s && this.skippedList.length < MAX_SKIPPED && !this.skippedList.some((k) => k.name === s[1]!.toLowerCase()))
      this.skippedList.push({ name: s[1]!.toLowerCase(), kind: s[2] ?? null });
    const a = ANNOUNCE.exec(line);
    if (a) {
      this.steps.push({ n: Number(a[1]), name: a[3]!, outcome: 'unfinished', lines: [] });
      return;
    }
    const r = RESULT.exec(line);
    const current = this.steps.at(-1);
    if (r && current && Number(r[1]) === current.n) {
      current.outcome = r[2] as SetupStepRecord['outcome'];
      if (r[3]) current.lines.push(r[3]);
      return;
    }
    const into = current && current.outcome === 'unfinished' ? current.lines : this.preamble;
    into.push(line);
    if (into.length > STEP_LINES) into.shift();
  }

  /** Every step announced, classified when it did not succeed (a skipped step by the lines before it). */
  records(): SetupStepRecord[] {
    return this.steps.map((s) => {
      if (s.outcome === 'succeeded') return { n: s.n, name: s.name, outcome: s.outcome, kind: null, evidence: null };
      const { kind, evidence } = classifyOutput(s.outcome === 'skipped' ? [...this.preamble, ...s.lines] : s.lines);
      return { n: s.n, name: s.name, outcome: s.outcome, kind, evidence };
    });
  }

  /** The package manager's own words for why it failed (see PackageManagerReason). */
  reasons(): string[] {
    return this.reason.reasons();
  }

  /** What setup installed differently from what the repository pinned, and why (its drift lines), in order. */
  drift(): string[] {
    return [...this.driftList];
  }

  /** The requirements an offline best effort skipped, in order, each once. */
  skipped(): SkippedRequirement[] {
    return [...this.skippedList];
  }

  /** The kind of a setup without steps (a configured command): the whole output, classified. */
  overall(): { kind: SetupFailureKind; evidence: string | null } {
    return classifyOutput([...this.preamble, ...this.steps.flatMap((s) => s.lines)]);
  }
}

const KIND_TEXT: Record<SetupFailureKind, string> = {
  network: 'network',
  tls: 'TLS',
  proxy_denied: 'a host outside the allowed registries',
  backend: 'build backend',
  lockfile: 'the lockfile does not match package.json',
  resolution: 'resolution',
  project: "the project's own code",
  no_space: 'no space left where setup writes',
  memory: 'out of memory',
  unknown: 'see the output',
};

/** The hint for a kind of failure. */
export function hintFor(kind: SetupFailureKind): string {
  switch (kind) {
    case 'network':
      return "the package registry is not reachable from setup: setup reaches only the registries in [env] allow_hosts, through hammer-box's proxy, which uses HTTPS_PROXY when hammer-box has one (it must be reachable from a container, not 127.0.0.1); without a registry only what the toolchain image carries can be installed";
    case 'tls':
      return 'a TLS-intercepting proxy is in the way: set [env] ca_bundle (or SSL_CERT_FILE) to its CA bundle';
    case 'proxy_denied':
      return "setup asked for a host that is not an allowed registry: add it to [env] allow_hosts in your own config (never the repository's)";
    case 'backend':
      return "the project's build backend is missing or too old, and could not be fetched: the python image carries Debian's flit-core, hatchling, setuptools, poetry-core and pdm-backend; any other backend needs a reachable index (or set [env] setup_command)";
    case 'lockfile':
      return "the lockfile does not match package.json (another version of the package manager, or a package.json edited without reinstalling): update the lockfile with the project's package manager and commit it, or set [env] setup_command to an install that may update it";
    case 'resolution':
      return 'a dependency cannot be satisfied: without a reachable index only packages the toolchain image already carries are available; check the pins, or set [env] setup_command';
    case 'project':
      return "the project's own setup code failed (see its output above): fix it, or set [env] setup_command";
    case 'no_space':
      return 'setup filled the space it may write: each of /workspace, /tmp and the dependency directories holds at most [env] setup_write_size; raise it in your config, or set it to 0 for disk volumes without a cap';
    case 'memory':
      return 'raise sandbox.memory (setup gets [env] setup_write_size more, for the files it writes, which are held in memory)';
    case 'unknown':
      return 'fix the setup command ([env] setup_command) or the dependency files; the end of the output is above';
  }
}

/** The summary lines of a failed setup's steps, and the kinds its hint follows (root cause first). */
export function describeSteps(records: readonly SetupStepRecord[]): { lines: string[]; kinds: SetupFailureKind[] } {
  const lines = records.map(
    (r) =>
      `  step ${r.n} (${r.name}): ${r.outcome}${r.kind ? `: ${KIND_TEXT[r.kind]}${r.evidence ? ` (${r.evidence})` : ''}` : ''}`,
  );
  // a network or TLS failure of the first step is the root cause of what failed offline after it
  const first = records[0]?.kind;
  const last = records.at(-1)?.kind ?? 'unknown';
  const root = first === 'network' || first === 'tls' || first === 'proxy_denied' ? [first] : [];
  return { lines, kinds: [...new Set([...root, last])] };
}

/** A short phrase for a kind, for messages. */
export function kindText(kind: SetupFailureKind): string {
  return KIND_TEXT[kind];
}
