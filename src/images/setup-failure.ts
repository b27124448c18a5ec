// Why a dependency setup failed, told from its output: which step (the script announces each one)
// and which kind of failure (network or TLS, build backend, resolution, the project's own code),
// with a hint that matches. Pure: the setup container's output lines in, a message out.

/** The kinds of setup failure, each with its own hint. */
export type SetupFailureKind =
  'network' | 'tls' | 'proxy_denied' | 'backend' | 'resolution' | 'project' | 'no_space' | 'memory' | 'unknown';

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

/** A requirement setup skipped: its name and, for a tool tests never need, what it is. */
export interface SkippedRequirement {
  name: string;
  kind: string | null;
}
const RESULT = /^hammer-box: setup step (\d+) (succeeded|failed|skipped)(?:: (.*))?$/;

/** Lines of each step kept for classification. */
const STEP_LINES = 400;

/** Collects setup output by step; feed every line, then read the steps. */
export class SetupLog {
  private readonly steps: { n: number; name: string; outcome: SetupStepRecord['outcome']; lines: string[] }[] = [];
  /** Lines before any step (the index probe, the venv). */
  private readonly preamble: string[] = [];
  private readonly skippedList: SkippedRequirement[] = [];

  /** Take one output line. */
  add(line: string): void {
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
