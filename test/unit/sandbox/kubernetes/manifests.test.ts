// The sandbox pod and its policy as API objects, and the check of the pod the API server stored.
import { describe, expect, it } from 'vitest';
import type { V1Pod } from '@kubernetes/client-node';
import { residentPrelude, KEEPER_SCRIPT } from '../../../../src/sandbox/kubernetes/keeper.js';
import {
  labelValue,
  networkPolicyManifest,
  objectName,
  ownership,
  podManifest,
  SANDBOX_LABEL,
} from '../../../../src/sandbox/kubernetes/manifests.js';
import { quantityBytes, quantityMilli, verifyPod } from '../../../../src/sandbox/kubernetes/verify-pod.js';
import type { SandboxSpec } from '../../../../src/sandbox/types.js';

const spec: SandboxSpec = {
  image: 'registry.test/hammer-box/python:abc',
  runId: '20261122T140501Z-k3b7qa',
  user: '10001:10002',
  env: { HOME: '/tmp', CI: 'true' },
  limits: {
    memoryBytes: 2 * 1024 ** 3,
    nanoCpus: 1.5e9,
    pidsLimit: 256,
    tmpBytes: 256 * 1024 ** 2,
    workspaceBytes: 1024 ** 3,
    nofile: 4096,
    runtime: '',
  },
};
const owner = { pid: 4242, host: 'build-host.example', now: new Date('2026-11-22T14:05:01Z') };
const name = objectName(spec.runId, 'beef');
const meta = ownership(spec.runId, name, owner);
const opts = { namespace: 'hb', deadlineSeconds: 3600, imagePullPolicy: 'IfNotPresent' as const };
const pod = (): V1Pod => JSON.parse(JSON.stringify(podManifest(spec, name, opts, meta, { name, uid: 'u-1' }))) as V1Pod;

describe('names and labels', () => {
  it('makes DNS-1123 names and label values from anything', () => {
    expect(name).toBe('hammer-box-20261122t140501z-k3b7qa-beef');
    expect(objectName('Weird Run/ID!!', 'x')).toMatch(/^hammer-box-weird-run-id-x$/);
    expect(objectName('a'.repeat(100), 'abcdef').length).toBeLessThanOrEqual(63);
    expect(labelValue('host:with spaces/and:colons.')).toBe('host-with-spaces-and-colons');
    expect(labelValue('---')).toBe('x');
  });

  it('keeps the exact owner in annotations and selectable values in labels', () => {
    expect(meta.labels).toEqual({
      'hammer-box.managed-by': 'hammer-box',
      'hammer-box.run-id': '20261122T140501Z-k3b7qa',
      [SANDBOX_LABEL]: name,
    });
    expect(meta.annotations).toEqual({
      'hammer-box.run-id': spec.runId,
      'hammer-box.created': '2026-11-22T14:05:01.000Z',
      'hammer-box.owner-pid': '4242',
      'hammer-box.owner-host': 'build-host.example',
    });
  });
});

describe('the network policy', () => {
  it('denies all ingress and egress of the one pod with its label', () => {
    const p = networkPolicyManifest(name, { namespace: 'hb' }, meta);
    expect(p.spec).toEqual({
      podSelector: { matchLabels: { [SANDBOX_LABEL]: name } },
      policyTypes: ['Ingress', 'Egress'],
      ingress: [],
      egress: [],
    });
  });
});

describe('the pod', () => {
  it('has the hardening of the Docker sandbox', () => {
    const p = pod();
    const s = p.spec!;
    const c = s.containers[0]!;
    expect(s).toMatchObject({
      restartPolicy: 'Never',
      activeDeadlineSeconds: 3600,
      automountServiceAccountToken: false,
      enableServiceLinks: false,
      hostNetwork: false,
      hostPID: false,
      hostIPC: false,
      securityContext: {
        runAsUser: 10001,
        runAsGroup: 10002,
        runAsNonRoot: true,
        fsGroup: 10002,
        seccompProfile: { type: 'RuntimeDefault' },
      },
    });
    expect(s.runtimeClassName).toBeUndefined();
    expect(c.securityContext).toEqual({
      runAsUser: 10001,
      runAsGroup: 10002,
      runAsNonRoot: true,
      allowPrivilegeEscalation: false,
      privileged: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(c.resources).toEqual({
      limits: { memory: String(2 * 1024 ** 3), cpu: '1500m' },
      requests: { memory: String(2 * 1024 ** 3), cpu: '375m' },
    });
    expect(c.command).toEqual(['perl', '-e', KEEPER_SCRIPT]);
    expect(c.env).toEqual([
      { name: 'HOME', value: '/tmp' },
      { name: 'CI', value: 'true' },
    ]);
    expect(s.volumes).toEqual([
      { name: 'workspace', emptyDir: { medium: 'Memory', sizeLimit: String(1024 ** 3) } },
      { name: 'tmp', emptyDir: { medium: 'Memory', sizeLimit: String(256 * 1024 ** 2) } },
    ]);
    expect(p.metadata?.ownerReferences).toEqual([
      { apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', name, uid: 'u-1', blockOwnerDeletion: false },
    ]);
  });

  it('asks for the RuntimeClass and an uncapped disk workspace when configured so', () => {
    const p = podManifest(
      { ...spec, limits: { ...spec.limits, runtime: 'gvisor', workspaceBytes: 0 } },
      name,
      opts,
      meta,
      null,
    );
    expect(p.spec?.runtimeClassName).toBe('gvisor');
    expect(p.spec?.volumes?.[0]).toEqual({ name: 'workspace', emptyDir: {} });
    expect(p.metadata?.ownerReferences).toBeUndefined();
  });
});

describe('verifyPod', () => {
  it('accepts the pod as asked for, with quantities in any notation', () => {
    const p = pod();
    p.spec!.containers[0]!.resources!.limits = { memory: '2Gi', cpu: '1500m' };
    expect(verifyPod(p, spec, name)).toEqual([]);
  });

  it('names everything a webhook loosened', () => {
    const p = pod();
    const c = p.spec!.containers[0]!;
    c.securityContext!.readOnlyRootFilesystem = false;
    c.securityContext!.capabilities = { drop: ['ALL'], add: ['NET_RAW'] };
    p.spec!.automountServiceAccountToken = true;
    p.spec!.volumes!.push({ name: 'token', projected: { sources: [] } });
    c.env!.push({ name: 'INJECTED', value: 'x' });
    c.resources!.limits = { cpu: '1500m' };
    p.metadata!.ownerReferences = [];
    expect(verifyPod(p, spec, name)).toEqual([
      'a read-only root filesystem',
      'every capability dropped',
      'automountServiceAccountToken false',
      `memory limit ${2 * 1024 ** 3}`,
      'only the workspace and /tmp emptyDir volumes',
      'exactly the environment asked for',
      `ownership by its network policy ${name}`,
    ]);
  });

  it('refuses a sidecar and a host namespace', () => {
    const p = pod();
    p.spec!.containers.push({ name: 'sidecar', image: 'x' });
    p.spec!.hostNetwork = true;
    expect(verifyPod(p, spec, name)).toEqual(['exactly one container', 'no host network, PID or IPC namespace']);
  });

  it('refuses a seccomp profile other than the one asked for, on the pod or the container', () => {
    const local = pod();
    local.spec!.containers[0]!.securityContext!.seccompProfile = {
      type: 'Localhost',
      localhostProfile: 'allow-all.json',
    };
    expect(verifyPod(local, spec, name)).toEqual(['seccomp RuntimeDefault']);
    const onPod = pod();
    onPod.spec!.securityContext!.seccompProfile = { type: 'Unconfined' };
    expect(verifyPod(onPod, spec, name)).toEqual(['seccomp RuntimeDefault']);
    const gone = pod();
    delete gone.spec!.containers[0]!.securityContext!.seccompProfile;
    delete gone.spec!.securityContext!.seccompProfile;
    expect(verifyPod(gone, spec, name)).toEqual(['seccomp RuntimeDefault']);
  });

  it('takes the Localhost profile the user configured, and only that one', () => {
    const seccompProfile = { type: 'Localhost' as const, localhostProfile: 'profiles/hammer.json' };
    const asked = (): V1Pod =>
      JSON.parse(
        JSON.stringify(podManifest(spec, name, { ...opts, seccompProfile }, meta, { name, uid: 'u-1' })),
      ) as V1Pod;
    expect(asked().spec!.containers[0]!.securityContext!.seccompProfile).toEqual(seccompProfile);
    expect(verifyPod(asked(), spec, name, { seccompProfile })).toEqual([]);
    const swapped = asked();
    swapped.spec!.containers[0]!.securityContext!.seccompProfile = {
      type: 'Localhost',
      localhostProfile: 'permissive.json',
    };
    expect(verifyPod(swapped, spec, name, { seccompProfile })).toEqual(['seccomp Localhost profiles/hammer.json']);
    expect(verifyPod(pod(), spec, name, { seccompProfile })).toEqual(['seccomp Localhost profiles/hammer.json']);
  });

  it('refuses groups other than the ones asked for', () => {
    const extra = pod();
    extra.spec!.securityContext!.supplementalGroups = [0, 999];
    expect(verifyPod(extra, spec, name)).toEqual(['no supplemental groups']);
    const fs = pod();
    fs.spec!.securityContext!.fsGroup = 0;
    expect(verifyPod(fs, spec, name)).toEqual(['fsGroup 10002']);
  });

  it('refuses an AppArmor, SELinux or sysctl loosening', () => {
    const p = pod();
    p.spec!.securityContext!.appArmorProfile = { type: 'Unconfined' };
    p.spec!.containers[0]!.securityContext!.seLinuxOptions = { type: 'spc_t' };
    p.spec!.securityContext!.sysctls = [{ name: 'net.ipv4.ping_group_range', value: '0 2147483647' }];
    expect(verifyPod(p, spec, name)).toEqual([
      'no AppArmor profile but the runtime default',
      'no SELinux type, user or role',
      'no sysctls',
    ]);
    const level = pod();
    level.spec!.securityContext!.seLinuxOptions = { level: 's0:c26,c5' };
    level.spec!.securityContext!.appArmorProfile = { type: 'RuntimeDefault' };
    expect(verifyPod(level, spec, name)).toEqual([]);
  });

  it('refuses an emptyDir without the size limit asked for (or a disk-backed workspace without one)', () => {
    const p = pod();
    p.spec!.volumes![0]!.emptyDir = {};
    expect(verifyPod(p, spec, name)).toEqual(['a size limit on every emptyDir (workspace 1073741824, tmp 268435456)']);
    const larger = pod();
    larger.spec!.volumes![1]!.emptyDir = { medium: 'Memory', sizeLimit: '100Gi' };
    expect(verifyPod(larger, spec, name)).toEqual([
      'a size limit on every emptyDir (workspace 1073741824, tmp 268435456)',
    ]);
    const uncapped = { ...spec, limits: { ...spec.limits, workspaceBytes: 0 } };
    const disk = JSON.parse(JSON.stringify(podManifest(uncapped, name, opts, meta, { name, uid: 'u-1' }))) as V1Pod;
    expect(verifyPod(disk, uncapped, name)).toEqual(['a size limit on every emptyDir (workspace 0, tmp 268435456)']);
  });

  it('reads quantities', () => {
    expect(quantityBytes('512Mi')).toBe(512 * 1024 ** 2);
    expect(quantityBytes('1G')).toBe(1e9);
    expect(quantityBytes('2147483648')).toBe(2147483648);
    expect(quantityBytes('lots')).toBeNaN();
    expect(quantityMilli('1')).toBe(1000);
    expect(quantityMilli('250m')).toBe(250);
    expect(quantityMilli('1.5')).toBe(1500);
  });
});

describe('the resident prelude', () => {
  it('sets the ulimits and keeps only the spec’s KUBERNETES_ variables', () => {
    const p = residentPrelude({ nofile: 4096 }, ['HOME', 'KUBERNETES_KEEP', 'bad name']);
    expect(p).toContain('[7, 4096]');
    expect(p).toContain('[4, 0]');
    expect(p).toContain('qw(HOME KUBERNETES_KEEP)');
    // no pod limit known: none claimed
    expect(p).toContain('delete $ENV{HAMMER_PIDS_LIMIT};');
  });

  it("names the pod's pids limit (which the container cannot read) for the resident and the runner", () => {
    expect(residentPrelude({ nofile: 4096, pods: 1024 }, [])).toContain("$ENV{HAMMER_PIDS_LIMIT} = '1024';");
    expect(residentPrelude({ nofile: 4096, pods: 0 }, [])).toContain('delete $ENV{HAMMER_PIDS_LIMIT};');
  });
});
