// The pods/exec channel protocol, pure: messages, the exit status, the request path, tar padding.
import { describe, expect, it } from 'vitest';
import {
  canCloseStdin,
  closeStdinMessage,
  decodeExecMessage,
  execPath,
  MAX_STDIN_MESSAGE,
  parseExecStatus,
  stdinMessages,
  TAR_RECORD,
  tarRecordPadding,
} from '../../../../src/sandbox/kubernetes/exec-frames.js';

describe('exec messages', () => {
  it('prefixes stdin with channel 0 and splits large chunks', () => {
    expect(stdinMessages(Buffer.from('ab'))).toEqual([Buffer.from([0, 97, 98])]);
    const big = stdinMessages(Buffer.alloc(MAX_STDIN_MESSAGE * 2 + 1, 1));
    expect(big.map((m) => m.length)).toEqual([MAX_STDIN_MESSAGE + 1, MAX_STDIN_MESSAGE + 1, 2]);
    expect(big.every((m) => m[0] === 0)).toBe(true);
  });

  it('closes stdin only on v5', () => {
    expect(closeStdinMessage()).toEqual(Buffer.from([255, 0]));
    expect(canCloseStdin('v5.channel.k8s.io')).toBe(true);
    expect(canCloseStdin('v4.channel.k8s.io')).toBe(false);
  });

  it('decodes output, status, close and empty messages', () => {
    expect(decodeExecMessage(Buffer.from([1, 104, 105]))).toEqual({ kind: 'stdout', payload: Buffer.from('hi') });
    expect(decodeExecMessage(Buffer.from([2, 33]))).toEqual({ kind: 'stderr', payload: Buffer.from('!') });
    expect(decodeExecMessage(Buffer.from([3, 123]))).toEqual({ kind: 'status', payload: Buffer.from('{') });
    expect(decodeExecMessage(Buffer.from([255, 1]))).toEqual({ kind: 'closed', channel: 1 });
    expect(decodeExecMessage(Buffer.from([1]))).toEqual({ kind: 'empty' });
    expect(decodeExecMessage(Buffer.alloc(0))).toEqual({ kind: 'empty' });
    expect(decodeExecMessage(Buffer.from([9, 1]))).toEqual({ kind: 'unknown', channel: 9 });
  });
});

describe('parseExecStatus', () => {
  const status = (o: unknown) => Buffer.from(JSON.stringify(o));

  it('reads Success as 0 and an ExitCode cause as its code', () => {
    expect(parseExecStatus(status({ metadata: {}, status: 'Success' }))).toEqual({ kind: 'exited', exitCode: 0 });
    expect(
      parseExecStatus(
        status({
          status: 'Failure',
          reason: 'NonZeroExitCode',
          message: 'command terminated with non-zero exit code: exit status 137',
          details: { causes: [{ reason: 'ExitCode', message: '137' }] },
        }),
      ),
    ).toEqual({ kind: 'exited', exitCode: 137 });
  });

  it('reads a process the runtime could not start as 127 or 126, as Docker', () => {
    const notFound = parseExecStatus(
      status({
        status: 'Failure',
        reason: 'InternalError',
        message:
          'error executing command in container: failed to exec in container: OCI runtime exec failed: exec failed: unable to start container process: exec: "nope": executable file not found in $PATH: unknown',
      }),
    );
    expect(notFound).toMatchObject({ kind: 'not-started', exitCode: 127 });
    expect(
      parseExecStatus(
        status({ status: 'Failure', message: 'OCI runtime exec failed: exec failed: permission denied' }),
      ),
    ).toMatchObject({ kind: 'not-started', exitCode: 126 });
  });

  it('leaves anything else a failure with its message, and garbage unreadable', () => {
    expect(parseExecStatus(status({ status: 'Failure', message: 'container not running' }))).toEqual({
      kind: 'failed',
      message: 'container not running',
    });
    expect(parseExecStatus(Buffer.from('not json'))).toMatchObject({ kind: 'failed' });
    expect(
      parseExecStatus(status({ status: 'Failure', details: { causes: [{ reason: 'ExitCode', message: 'x' }] } })),
    ).toMatchObject({
      kind: 'failed',
    });
  });
});

describe('execPath', () => {
  it('sends argv as repeated command parameters, escaped', () => {
    const path = execPath('ns', 'pod-1', 'sandbox', ['sh', '-c', 'echo a&b=c'], true);
    const url = new URL(path, 'http://x');
    expect(url.pathname).toBe('/api/v1/namespaces/ns/pods/pod-1/exec');
    expect(url.searchParams.getAll('command')).toEqual(['sh', '-c', 'echo a&b=c']);
    expect(Object.fromEntries([...url.searchParams].filter(([k]) => k !== 'command'))).toEqual({
      container: 'sandbox',
      stdin: 'true',
      stdout: 'true',
      stderr: 'true',
      tty: 'false',
    });
  });
});

describe('tarRecordPadding', () => {
  it('pads to whole tar records', () => {
    expect(tarRecordPadding(0).length).toBe(0);
    expect(tarRecordPadding(1024).length).toBe(TAR_RECORD - 1024);
    expect(tarRecordPadding(TAR_RECORD).length).toBe(0);
    expect(tarRecordPadding(TAR_RECORD + 1).length).toBe(TAR_RECORD - 1);
  });
});
