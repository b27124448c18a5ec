// How long one of the agent's bash commands may run: the shell's limit ([agent] command_timeout),
// or, for the configured test command (with more arguments, or its tail run in its directory), the
// test run's own limit, so the model can run the whole suite as the loop would. Pure.

/** The limit for `command`, in seconds. */
export function commandTimeoutS(
  command: string,
  opts: { testCommand: string; testTimeoutS: number; commandTimeoutS: number },
): number {
  return runsTestCommand(command, opts.testCommand)
    ? Math.max(opts.testTimeoutS, opts.commandTimeoutS)
    : opts.commandTimeoutS;
}

/** The command runs the test command: it, it with more arguments, its part after `cd <dir> &&`, or either after `&&`. */
export function runsTestCommand(command: string, testCommand: string): boolean {
  const norm = (s: string): string => s.trim().replace(/\s+/g, ' ');
  const cmd = norm(command);
  const test = norm(testCommand);
  if (test === '' || cmd === '') return false;
  const forms = [test, test.replace(/^cd \S+ && /, '')].filter((f) => f !== '');
  return forms.some((f) => cmd === f || cmd.startsWith(`${f} `) || cmd.endsWith(`&& ${f}`) || cmd.includes(`&& ${f} `));
}
