// A step's test stopped at its limit reads as timed out however late the runner's stage lines reach
// the host: under load they can arrive together with the end of the exec.
import { describe, expect, it } from 'vitest';
import { SandboxRepo } from '../../../src/loop/sandbox-repo.js';
import type { ExecOptions, ExecResult, Sandbox } from '../../../src/sandbox/types.js';

const COMMIT = 'a'.repeat(40);

/** A sandbox whose step runs `ms`, then delivers all of its output at once and exits `exitCode`. */
function lateSandbox(ms: number, exitCode: number): Sandbox {
  const fake = {
    workdir: '/workspace',
    async exec(_argv: string[], opts: ExecOptions): Promise<ExecResult> {
      await new Promise((r) => setTimeout(r, ms));
      const stdout = `HAMMER_STAGE checked 1\nHAMMER_STAGE applied ${COMMIT}\n`;
      opts.onOutput?.('stdout', Buffer.from(stdout));
      const text = (t: string): ExecResult['stdout'] => ({ text: t, totalBytes: t.length, droppedBytes: 0 });
      return { exitCode, stdout: text(stdout), stderr: text(''), durationMs: ms, timedOut: false };
    },
    async killAll(): Promise<void> {},
  };
  return fake as unknown as Sandbox;
}

const step = (sandbox: Sandbox, timeoutMs: number) =>
  new SandboxRepo(sandbox, { execTimeoutMs: 10_000, maxOutputBytes: 64 * 1024 }).step(
    COMMIT,
    'iter-01.patch',
    [{ flags: [], patch: 'diff --git a/x b/x\n' }],
    'msg',
    { command: 'sleep 1000', timeoutMs },
  );

describe('a step whose test ends with timeout(1)', () => {
  it('is timed out when the exec ran as long as the limit, though the applied line came at its end', async () => {
    const r = await step(lateSandbox(300, 124), 300);
    expect(r.kind).toBe('applied');
    if (r.kind === 'applied') expect(r.test.timedOut).toBe(true);
  });

  it('is a test that exited 124 on its own when the exec ended well before the limit', async () => {
    const r = await step(lateSandbox(10, 124), 5_000);
    expect(r.kind).toBe('applied');
    if (r.kind === 'applied') {
      expect(r.test.timedOut).toBe(false);
      expect(r.test.exitCode).toBe(124);
    }
  });
});
