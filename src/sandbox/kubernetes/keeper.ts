// The in-pod programs the Kubernetes backend adds to the resident runner. A pod has one user for
// everything (pods/exec cannot pick another), so the keeper that holds the pod open is PID 1 as the
// sandbox user: no signal from inside its namespace reaches a PID 1, and it makes itself
// non-dumpable, so code of the same uid can neither kill it nor ptrace it. It reaps the orphans the
// commands leave, as Docker's init does. The resident's prelude sets the ulimits Docker sets (the
// Pod API has none) and drops the variables the kubelet adds for the API server. The pids limit is
// not among them: RLIMIT_NPROC counts a uid's processes on the whole node, so every sandbox of the
// same user would share it; a pod's pids are the kubelet's podPidsLimit (see docs/kubernetes.md).

/** prctl's syscall number from this perl's ELF machine field (x86_64 157, aarch64 167); setrlimit's (160, 164). */
const SYSCALLS = String.raw`my %PRCTL = (62 => 157, 183 => 167); my %SETRLIMIT = (62 => 160, 183 => 164);
my $machine = 0;
if (open(my $exe, '<:raw', '/proc/self/exe')) { my $h = ''; read($exe, $h, 20); $machine = unpack('v', substr($h, 18, 2)) if length $h == 20; close $exe; }`;

/** Exit status of a keeper or prelude that could not protect itself or set a limit. */
export const KEEPER_REFUSED = 4;

/** PID 1 of a sandbox pod: non-dumpable, reaps every child, never exits on its own. */
export const KEEPER_SCRIPT = String.raw`
${SYSCALLS}
my $nr = $PRCTL{$machine} or exit ${KEEPER_REFUSED};
syscall($nr, 4, 0, 0, 0, 0);
exit ${KEEPER_REFUSED} unless syscall($nr, 3, 0, 0, 0, 0) == 0;
$0 = 'hammer-keeper';
$SIG{CHLD} = sub {};
while (1) { my $p = waitpid(-1, 0); sleep 1 if $p <= 0; }
`;

/** RLIMIT numbers (the same on x86_64 and aarch64). */
const RLIMIT = { core: 4, nofile: 7 } as const;

/**
 * Perl put before the resident's script: RLIMIT_CORE 0 and RLIMIT_NOFILE `nofile`, soft and hard,
 * for the resident and every command it starts; no KUBERNETES_* variable but those in `keep`; and
 * HAMMER_PIDS_LIMIT = `pods` (the kubelet's podPidsLimit, kept in the pod's cgroup, which the
 * container cannot read: its own pids.max reads "max"), so the resident and the runner judge a full
 * pids limit by the one that applies.
 */
export function residentPrelude(limits: { nofile: number; pods?: number }, keep: readonly string[]): string {
  const names = keep.filter((k) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(k)).join(' ');
  const pids = limits.pods !== undefined && Number.isInteger(limits.pods) && limits.pods > 0 ? limits.pods : null;
  return String.raw`
${SYSCALLS}
my $rl = $SETRLIMIT{$machine} or exit ${KEEPER_REFUSED};
for my $l ([${RLIMIT.core}, 0], [${RLIMIT.nofile}, ${limits.nofile}]) {
  my $buf = pack('QQ', $l->[1], $l->[1]);
  exit ${KEEPER_REFUSED} unless syscall($rl, $l->[0], $buf) == 0; }
my %keep = map { $_ => 1 } qw(${names});
delete @ENV{grep { /^KUBERNETES_/ && !$keep{$_} } keys %ENV};
${pids === null ? 'delete $ENV{HAMMER_PIDS_LIMIT};' : `$ENV{HAMMER_PIDS_LIMIT} = '${pids}';`}
`;
}
