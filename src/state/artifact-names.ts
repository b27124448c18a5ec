// File names of a run's artifacts, beside its state in .hammer/runs/<run_id>/.

const iter = (n: number): string => `iter-${String(n).padStart(2, '0')}`;

/** The artifact names the loop writes, one function per kind. */
export const artifactNames = {
  /** The prompt sent to the model in iteration n (markdown). */
  prompt: (n: number): string => `${iter(n)}-prompt.md`,
  /** The model's raw answer in iteration n, byte for byte (replay plays these back). */
  answer: (n: number): string => `${iter(n)}-answer.md`,
  /** The model's k-th answer of iteration n that asked to see more, byte for byte (replayed before the final answer). */
  askAnswer: (n: number, k: number): string => `${iter(n)}-ask-${k}-answer.md`,
  /** The tool calls of that answer, as JSON (replayed with it), when it asked with tool calls. */
  askToolCalls: (n: number, k: number): string => `${iter(n)}-ask-${k}-tool-calls.json`,
  /** What the runtime answered to that request (sent to the model as the next user message). */
  askReply: (n: number, k: number): string => `${iter(n)}-ask-${k}-reply.md`,
  /** Agent mode: the k-th answer of iteration n's trajectory, byte for byte (replay plays these back in order). */
  turnAnswer: (n: number, k: number): string => `${iter(n)}-turn-${k}-answer.md`,
  /** The native tool calls of that answer, as JSON (replayed with it). */
  turnToolCalls: (n: number, k: number): string => `${iter(n)}-turn-${k}-tool-calls.json`,
  /** Agent mode: iteration n's whole trajectory, readable: the messages sent, every answer, every observation. */
  trajectory: (n: number): string => `${iter(n)}-trajectory.md`,
  /** The normalised patch extracted from iteration n's answer. */
  patch: (n: number): string => `${iter(n)}.patch`,
  /** The test run's log after iteration n's patch. */
  testLog: (n: number): string => `${iter(n)}-test.log`,
  /** The re-run at the base commit of tests that failed after iteration n's patch and not at baseline. */
  baseRerunLog: (n: number): string => `${iter(n)}-base-rerun.log`,
  /** The baseline test run's log. */
  baselineTestLog: (): string => 'baseline-test.log',
  /** The log of the baseline's failing tests run again (flaky ones pass there). */
  baselineRerunLog: (): string => 'baseline-rerun-test.log',
  /** The baseline test run of the k-th other project tried when the tests passed at baseline (1-based). */
  alternativeTestLog: (k: number): string => `baseline-test-alternative-${k}.log`,
  /** The pull-request summary. */
  prSummary: (): string => 'PR_SUMMARY.md',
  /** The locks of the run's toolchain and env images (JSON; their digests are in the state). */
  imageLocks: (): string => 'image-locks.json',
  /** Progress and log events, one JSON document a line. */
  events: (): string => 'events.ndjson',
} as const;
