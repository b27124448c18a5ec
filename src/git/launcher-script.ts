// The git launcher's helper process: a small Perl program (perl-base is Essential on Debian, and
// macOS ships perl) that starts the host's git commands for node. node's spawn() forks the whole
// node process, and the fork's page-table copy blocks node's thread for as long as node is big
// (6 ms at 50 MB, 16 ms at 260 MB on a 2-core machine); the helper stays a few MB, so its forks
// cost well under a millisecond and node only writes a frame. Builtins only, no module: nothing on
// @INC is read.
//
// Frames both ways: a kind byte, a big-endian u32 payload length, then the payload, which starts
// with the command's u32 id.
// node to helper (stdin):
//   c  start: u32 how many bytes of stdout it may send before node grants more (all ones: no
//      limit), u32 input length, the input (written to the command's stdin, then closed), then
//      NUL-separated: cwd, the number of env entries, KEY=value entries, the number of argv
//      entries, argv (argv[0] is looked up on the env's PATH)
//   k  send the command the signal number in the u32 that follows its id
//   g  grant the command the u32 that follows its id in more bytes of stdout (node read them)
// helper to node (stdout):
//   r  ready (id 0): "git-launcher 1"
//   o  / e  a chunk of the command's stdout / stderr
//   x  it ended, after all its output: "<exit code> <signal number>"
//   f  it never started: "<stage> <errno>" (stage chdir, exec or fork)
// When node goes away (stdin ends) every command still running is killed and the helper exits at
// once; a command sent a signal is read to its end whatever its credit.

/** The first frame the helper sends. */
export const LAUNCHER_HELLO = 'git-launcher 1';

/** The Perl source, run as `perl -e <source>`. */
export const LAUNCHER_SCRIPT = String.raw`
$SIG{PIPE} = 'IGNORE';
binmode STDIN; binmode STDOUT;
my (%run, @reap);
my $inbuf = '';
sub frame { my ($k, $id, $p) = @_; my $d = $k . pack('NN', 4 + length $p, $id) . $p; my $o = 0;
  while ($o < length $d) { my $n = syswrite(STDOUT, $d, length($d) - $o, $o);
    if (!defined $n) { next if ($! + 0) == 4; exit 5; } $o += $n; } }
sub status { my ($s) = @_; return ($s >> 8) . ' ' . ($s & 127); }
sub ended { my ($c) = @_; return if $c->{out} || $c->{err};
  if ($c->{in}) { close $c->{in}; $c->{in} = undef; $c->{input} = ''; }
  my $p = waitpid($c->{pid}, 1);
  if ($p == $c->{pid}) { frame('x', $c->{id}, status($?)); delete $run{$c->{id}}; }
  else { push @reap, $c; } }
sub start { my ($id, $p) = @_;
  my ($credit, $len) = unpack('NN', $p); my $input = substr($p, 8, $len);
  my @f = split(/\0/, substr($p, 8 + $len), -1);
  my $cwd = shift @f; my $ne = shift @f; my @env = splice(@f, 0, $ne); my $na = shift @f; my @argv = splice(@f, 0, $na);
  my ($ir, $iw, $or, $ow, $er, $ew, $sr, $sw);
  unless (pipe($ir, $iw) && pipe($or, $ow) && pipe($er, $ew) && pipe($sr, $sw)) { frame('f', $id, 'fork ' . ($! + 0)); return; }
  my $pid = fork();
  if (!defined $pid) { frame('f', $id, 'fork ' . ($! + 0)); close $_ for ($ir, $iw, $or, $ow, $er, $ew, $sr, $sw); return; }
  if ($pid == 0) {
    close $_ for ($iw, $or, $er, $sr);
    $SIG{PIPE} = 'DEFAULT';
    open(STDIN, '<&', $ir) && open(STDOUT, '>&', $ow) && open(STDERR, '>&', $ew) or do { syswrite($sw, 'fork ' . ($! + 0)); exit 127; };
    chdir($cwd) or do { syswrite($sw, 'chdir ' . ($! + 0)); exit 127; };
    %ENV = ();
    for my $e (@env) { my ($k, $v) = split(/=/, $e, 2); $ENV{$k} = $v; }
    exec { $argv[0] } @argv;
    syswrite($sw, 'exec ' . ($! + 0)); exit 127;
  }
  close $_ for ($ir, $ow, $ew, $sw);
  my $st = ''; 1 while !defined sysread($sr, $st, 64) && ($! + 0) == 4; close $sr;
  if ($st ne '') { close $_ for ($iw, $or, $er); waitpid($pid, 0); frame('f', $id, $st); return; }
  my $c = { id => $id, pid => $pid, out => $or, err => $er, in => $iw, input => $input, off => 0,
    credit => $credit == 4294967295 ? undef : $credit };
  if ($len == 0) { close $iw; $c->{in} = undef; }
  $run{$id} = $c; }
frame('r', 0, '${LAUNCHER_HELLO}');
while (1) {
  my ($rin, $win) = ('', '');
  vec($rin, fileno(STDIN), 1) = 1;
  for my $c (values %run) {
    vec($rin, fileno($c->{out}), 1) = 1 if $c->{out} && (!defined $c->{credit} || $c->{credit} > 0);
    vec($rin, fileno($c->{err}), 1) = 1 if $c->{err};
    vec($win, fileno($c->{in}), 1) = 1 if $c->{in}; }
  my $n = select(my $rout = $rin, my $wout = $win, undef, @reap ? 0.002 : undef);
  if ($n < 0) { next if ($! + 0) == 4; exit 6; }
  if (@reap) { my @left; for my $c (@reap) { my $p = waitpid($c->{pid}, 1);
      if ($p == $c->{pid}) { frame('x', $c->{id}, status($?)); delete $run{$c->{id}}; } else { push @left, $c; } } @reap = @left; }
  next if $n <= 0;
  for my $c (values %run) {
    next unless $c->{in} && vec($wout, fileno($c->{in}), 1);
    my $left = length($c->{input}) - $c->{off};
    my $w = syswrite($c->{in}, $c->{input}, $left < 4096 ? $left : 4096, $c->{off});
    if (defined $w) { $c->{off} += $w; }
    elsif (($! + 0) == 4 || ($! + 0) == 11 || ($! + 0) == 35) { next; }
    if (!defined $w || $c->{off} >= length $c->{input}) { close $c->{in}; $c->{in} = undef; $c->{input} = ''; } }
  for my $c (values %run) {
    for my $kind ('out', 'err') {
      my $fh = $c->{$kind}; next unless $fh && vec($rout, fileno($fh), 1);
      my $want = $kind eq 'out' && defined $c->{credit} && $c->{credit} < 65527 ? $c->{credit} : 65527;
      # at most 64 KiB a frame, node's read size, so frames rarely straddle two of node's reads
      my $d = ''; my $r = sysread($fh, $d, $want);
      if (!defined $r) { next if ($! + 0) == 4 || ($! + 0) == 11 || ($! + 0) == 35; $r = 0; }
      if ($r > 0) { $c->{credit} -= $r if $kind eq 'out' && defined $c->{credit}; frame($kind eq 'out' ? 'o' : 'e', $c->{id}, $d); next; }
      close $fh; $c->{$kind} = undef; ended($c); } }
  if (vec($rout, fileno(STDIN), 1)) {
    my $r = sysread(STDIN, $inbuf, 65536, length $inbuf);
    if (!defined $r) { next if ($! + 0) == 4; $r = 0; }
    # node went away: nobody reads what is left; its commands are killed, init reaps them
    if ($r == 0) { kill(9, $_->{pid}) for values %run; exit 0; }
    while (length($inbuf) >= 5) {
      my ($k, $len) = unpack('aN', $inbuf); last if length($inbuf) < 5 + $len;
      my $p = substr($inbuf, 5, $len); $inbuf = substr($inbuf, 5 + $len);
      my $id = unpack('N', $p); $p = substr($p, 4);
      if ($k eq 'c') { start($id, $p); }
      # a command sent a signal is drained whatever its credit, so its end is seen
      elsif ($k eq 'k') { my $c = $run{$id}; if ($c) { kill(unpack('N', $p), $c->{pid}); $c->{credit} = undef; } }
      elsif ($k eq 'g') { my $c = $run{$id}; $c->{credit} += unpack('N', $p) if $c && defined $c->{credit}; } } }
}
`;
