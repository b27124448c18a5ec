// The resident runner's in-sandbox side: one long-lived Perl process (perl-base is Essential in
// Debian, so every toolchain image has it, even the ones without node or python) that runs one
// command at a time for the host over its attached exec stream. Builtins only, no module: nothing
// on @INC is read, so nothing the image's dependency setup installed can change it. It travels in
// argv, so code in the sandbox cannot change it either.
//
// Host to resident (stdin), frames of a kind byte, a big-endian u32 length and the payload:
//   c  run a command: NUL-separated cwd, the number of env entries, KEY=value entries, then argv
//   k  kill every process of the sandbox user now (a timeout, an abort, killAll) and wait until gone
//   f  an editor's file operation, done by the resident itself (no process started), while no command
//      runs: NUL-separated op (read, write, remove), the workspace root, a relative path without
//      empty, "." or ".." components, the argument (read: the most bytes sent; write: the permission
//      bits in octal; remove: 0), and for write the content. Every process of the sandbox user is
//      killed and gone first, so nothing changes the path meanwhile; a symbolic link anywhere on the
//      path is never followed (answered "link"). write makes missing directories, writes a temporary
//      file beside the target and renames it over (a full workspace leaves the file as it was)
// Resident to host (stdout), the same framing:
//   r  ready: "hammer-resident 1"
//   o  / e  a chunk of the running command's stdout / stderr, as read (at most 64 KiB)
//   x  the command ended: "<exit code> <settled 0|1> <fork failed 0|1|2>" (a signal n gives 128+n;
//      2: the fork failed with the pids limit full)
//   K  a kill asked for while no command ran is done: "<settled 0|1>"
//   d  a chunk of a file being read (at most 64 KiB), before its F
//   F  a file operation's end: "file <mode, octal> <size> <bytes sent>" (read: the content was sent
//      when size <= the most asked for), "done", "missing", "link", "blocked" (a component above is
//      not a directory), "other" (not a regular file), "unsettled", "bad" (a malformed request) or
//      "failed <the system's reason>"
//
// Contracts it keeps, as the one exec per command did:
// - commands run as the sandbox user with only the exec's environment plus their own, stdin
//   /dev/null, and never hold the exec's own stdio (only pipes the resident reads);
// - after every command it kills every other process of its uid with kill(-1), which spares only
//   itself and PID 1 (on Kubernetes the keeper, of the same uid: no signal from inside reaches it), and waits (at most SETTLE seconds, starting no process: a fork bomb may hold every
//   pid) until all are gone and reaped; "settled 0" says some outlived that;
// - it makes itself non-dumpable first (prctl PR_SET_DUMPABLE 0), so code of the same uid cannot
//   ptrace it or open its /proc files (memory, file descriptors): it refuses to run otherwise. That
//   code can still kill it; the host then sees the stream end and reports the sandbox broken.
// - its commands get oom_score_adj 1000, so at the memory limit the kernel kills them, not it;
// - stdin's end (the host went away) kills every process of its uid and ends it.

/** How long the resident waits for killed processes to be gone (as the runner's settle). */
export const RESIDENT_SETTLE_SECONDS = 20;

/** The first frame the resident sends once it runs protected. */
export const RESIDENT_HELLO = 'hammer-resident 1';

/** Exit statuses of a resident that would not start: it runs as root, or cannot protect itself. */
export const RESIDENT_REFUSED = { root: 3, dumpable: 4 } as const;

/** The Perl source, run as `perl -e <source>`. */
export const RESIDENT_SCRIPT = String.raw`
my $UID = $<;
exit ${RESIDENT_REFUSED.root} if $UID == 0 || $> == 0;
# prctl's syscall number, from this perl's own ELF machine field (x86_64 157, aarch64 167)
my %PRCTL = (62 => 157, 183 => 167);
my $machine = 0;
if (open(my $exe, '<:raw', '/proc/self/exe')) { my $h = ''; read($exe, $h, 20); $machine = unpack('v', substr($h, 18, 2)) if length $h == 20; close $exe; }
my $nr = $PRCTL{$machine} or exit ${RESIDENT_REFUSED.dumpable};
syscall($nr, 4, 0, 0, 0, 0);
exit ${RESIDENT_REFUSED.dumpable} unless syscall($nr, 3, 0, 0, 0, 0) == 0;
chdir '/';
my %BASE = %ENV;
$BASE{HAMMER_RESIDENT} = '1';
binmode STDIN; binmode STDOUT;
sub frame { my ($k, $p) = @_; my $d = $k . pack('N', length $p) . $p; my $o = 0;
  while ($o < length $d) { my $n = syswrite(STDOUT, $d, length($d) - $o, $o); exit 5 unless defined $n; $o += $n; } }
my ($child, $status, $forkfail, $out, $err) = (0, undef, 0, undef, undef);
my $pending_kill = 0;
sub reap { while ((my $p = waitpid(-1, 1)) > 0) { $status = $? if $child && $p == $child; } }
sub others { my $n = 0; opendir(my $d, '/proc') or return 1;
  for my $p (readdir $d) { next unless $p =~ /^[0-9]+$/ && $p != $$ && $p != 1;
    open(my $f, '<', "/proc/$p/status") or next;
    while (my $l = <$f>) { if ($l =~ /^Uid:\s+([0-9]+)/) { $n++ if $1 == $UID; last; } } close $f; }
  closedir $d; return $n; }
# the limit that applies: the cgroup's own, else (a pod's, kept in a cgroup above: its own reads
# "max") the one the host names in HAMMER_PIDS_LIMIT
sub pids_full { for my $dir ('/sys/fs/cgroup', '/sys/fs/cgroup/pids') {
    open(my $c, '<', "$dir/pids.current") or next; open(my $m, '<', "$dir/pids.max") or next;
    my $cur = <$c>; my $max = <$m>; return 0 unless defined $cur && defined $max;
    chomp $cur; chomp $max; $max = $ENV{HAMMER_PIDS_LIMIT} if $max eq 'max' && ($ENV{HAMMER_PIDS_LIMIT} // '') =~ /^[0-9]+$/;
    return 0 unless $cur =~ /^[0-9]+$/ && $max =~ /^[0-9]+$/;
    return $cur >= $max - 2 ? 1 : 0; } return 0; }
sub settle { my $end = time + ${RESIDENT_SETTLE_SECONDS};
  while (1) { kill 'KILL', -1; reap();
    return 1 if !others() && !pids_full();
    return 0 if time >= $end;
    select(undef, undef, undef, 0.002); } }
my $in = '';
my $stdin_open = 1;
sub take_frame { return undef if length $in < 5; my ($k, $n) = unpack('a N', $in);
  exit 6 if $n > 16777216; return undef if length $in < 5 + $n;
  my $p = substr($in, 5, $n); substr($in, 0, 5 + $n) = ''; return [$k, $p]; }
sub start { my @f = split /\0/, $_[0], -1; my $cwd = shift @f; my $ne = shift @f;
  exit 7 unless defined $ne && $ne =~ /^[0-9]+$/ && @f > $ne;
  my @env = splice(@f, 0, $ne); my @argv = @f;
  my ($or, $ow, $er, $ew);
  unless (pipe($or, $ow) && pipe($er, $ew)) { frame('x', '126 1 1'); return; }
  my $pid = fork;
  unless (defined $pid) { close $_ for grep { defined } ($or, $ow, $er, $ew); frame('x', '126 1 ' . (pids_full() ? 2 : 1)); return; }
  if ($pid == 0) {
    close $or; close $er;
    open(STDIN, '<', '/dev/null') or exit 126;
    open(STDOUT, '>&', $ow) or exit 126; open(STDERR, '>&', $ew) or exit 126;
    close $ow; close $ew;
    unless (chdir $cwd) { syswrite(STDERR, "hammer-resident: cannot enter $cwd: $!\n"); exit 126; }
    # the command and everything it starts go first when the sandbox runs out of memory, never the
    # resident (raising one's own oom_score_adj needs no privilege)
    if (open(my $adj, '>', '/proc/self/oom_score_adj')) { print $adj "1000\n"; close $adj; }
    %ENV = %BASE;
    for my $kv (@env) { my ($k, $v) = split /=/, $kv, 2; $ENV{$k} = $v; }
    exec { $argv[0] } @argv;
    syswrite(STDERR, "hammer-resident: cannot run $argv[0]: $!\n");
    exit 127;
  }
  close $ow; close $ew;
  ($child, $status, $forkfail, $out, $err) = ($pid, undef, 0, $or, $er);
}
sub drain { my ($fh, $k) = @_; my $b = ''; my $n = sysread($fh, $b, 65536);
  if ($n) { frame($k, $b); return 1; } return 0; }
sub finish { my $settled = settle();
  # every writer is gone now (unless some outlived the settle): read what is left, then the end
  for my $pair ([$out, 'o'], [$err, 'e']) { my ($fh, $k) = @$pair; next unless $fh;
    if ($settled) { my $r = ''; vec($r, fileno($fh), 1) = 1;
      while (select(my $x = $r, undef, undef, 1) > 0 && drain($fh, $k)) {} }
    close $fh; }
  my $code = ($status & 127) ? 128 + ($status & 127) : $status >> 8;
  ($child, $out, $err) = (0, undef, undef);
  frame('x', "$code $settled 0"); }
# the editor's file operations (see the f frame above); errno 2 is ENOENT on every Linux
sub ferr { my $e = "$!"; $e =~ s/[^ -~]//g; return 'failed ' . substr($e, 0, 200); }
sub fwalk { my ($root, $rel, $make) = @_; my @parts = split m{/}, $rel, -1;
  return (undef, 'bad') if !@parts || grep { $_ eq '' || $_ eq '.' || $_ eq '..' } @parts;
  my $at = $root;
  for my $i (0 .. $#parts) { $at .= "/$parts[$i]"; my @s = lstat $at;
    return (undef, ferr()) if !@s && $! + 0 != 2;
    return (undef, 'link') if @s && -l _;
    last if $i == $#parts;
    if (!@s) { return (undef, 'missing') unless $make; mkdir($at, 0755) or return (undef, ferr()); next; }
    return (undef, 'blocked') unless -d _; }
  return ($at, ''); }
sub fileop { my ($op, $root, $rel, $arg, $data) = split /\0/, $_[0], 5;
  return frame('F', 'bad') unless defined $arg && $root =~ m{^/} &&
    (($op eq 'read' && $arg =~ /^[0-9]{1,10}$/) || ($op eq 'write' && $arg =~ /^[0-7]{1,4}$/) || ($op eq 'remove' && $arg eq '0'));
  return frame('F', 'unsettled') unless settle();
  my ($at, $why) = fwalk($root, $rel, $op eq 'write');
  return frame('F', $why) unless defined $at;
  my @s = lstat $at;
  return frame('F', ferr()) if !@s && $! + 0 != 2;
  if ($op eq 'read') { return frame('F', 'missing') unless @s; return frame('F', 'other') unless -f _;
    sysopen(my $fh, $at, 0) or return frame('F', ferr());
    my @t = stat $fh;
    unless (@t && -f _ && $t[0] == $s[0] && $t[1] == $s[1]) { close $fh; return frame('F', 'other'); }
    my ($size, $sent) = ($t[7], 0);
    if ($size <= $arg) { while ($sent < $size) { my $b = ''; my $n = sysread($fh, $b, 65536);
        unless (defined $n) { my $e = ferr(); close $fh; return frame('F', $e); }
        last unless $n; $b = substr($b, 0, $size - $sent) if $sent + $n > $size; frame('d', $b); $sent += length $b; } }
    close $fh;
    return frame('F', sprintf('file %o %d %d', $t[2] & 07777, $size, $sent)); }
  if ($op eq 'remove') { return frame('F', 'missing') unless @s; return frame('F', 'other') if -d _;
    unlink $at or return frame('F', ferr()); return frame('F', 'done'); }
  return frame('F', 'other') if @s && !-f _;
  (my $dir = $at) =~ s{/[^/]*$}{};
  my $tmp = "$dir/.hammer-edit-$$"; unlink $tmp;
  sysopen(my $fh, $tmp, 1 | 64 | 128, 0600) or return frame('F', ferr());
  $data = '' unless defined $data; my $o = 0;
  while ($o < length $data) { my $n = syswrite($fh, $data, length($data) - $o, $o);
    unless (defined $n) { my $e = ferr(); close $fh; unlink $tmp; return frame('F', $e); } $o += $n; }
  unless (chmod(oct($arg) & 0777, $fh) && close($fh) && rename($tmp, $at)) { my $e = ferr(); unlink $tmp; return frame('F', $e); }
  frame('F', 'done'); }
frame('r', '${RESIDENT_HELLO}');
while (1) {
  my $rin = '';
  vec($rin, fileno(STDIN), 1) = 1 if $stdin_open;
  vec($rin, fileno($out), 1) = 1 if $out; vec($rin, fileno($err), 1) = 1 if $err;
  my $wait = $child ? (($out || $err) ? 0.01 : 0.001) : undef;
  my $ready = select(my $rout = $rin, undef, undef, $wait);
  if ($ready > 0) {
    if ($out && vec($rout, fileno($out), 1)) { unless (drain($out, 'o')) { close $out; $out = undef; } }
    if ($err && vec($rout, fileno($err), 1)) { unless (drain($err, 'e')) { close $err; $err = undef; } }
    if ($stdin_open && vec($rout, fileno(STDIN), 1)) {
      my $n = sysread(STDIN, $in, 65536, length $in);
      unless ($n) { settle(); exit 0; }
      while (my $f = take_frame()) {
        if ($f->[0] eq 'c') { exit 8 if $child; start($f->[1]); }
        elsif ($f->[0] eq 'k') { if ($child) { settle(); } else { frame('K', settle()); } }
        elsif ($f->[0] eq 'f') { exit 8 if $child; fileop($f->[1]); }
        else { exit 9; }
      }
    }
  }
  if ($child) { reap() unless defined $status; finish() if defined $status; }
}
`;
