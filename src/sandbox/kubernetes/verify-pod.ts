// The created pod, as the API server stored it (after every admission webhook had its say), checked
// against the hardening asked for; pure. Anything missing refuses the sandbox, as Docker's inspect does.
import type { V1Pod } from '@kubernetes/client-node';
import { WORKDIR } from '../hardening.js';
import type { SandboxSpec } from '../types.js';
import { parseSandboxUser } from '../user.js';
import { CONTAINER, milliCpus } from './manifests.js';

/** What is missing from `pod` for `spec` (empty when it is fully hardened). */
export function verifyPod(pod: V1Pod, spec: SandboxSpec, policyName: string): string[] {
  const missing: string[] = [];
  const need = (ok: boolean, what: string): void => {
    if (!ok) missing.push(what);
  };
  const { uid, gid } = parseSandboxUser(spec.user);
  const p = pod.spec;
  if (!p) return ['a pod spec'];
  need(
    p.containers.length === 1 && !p.initContainers?.length && !p.ephemeralContainers?.length,
    'exactly one container',
  );
  const c = p.containers.find((x) => x.name === CONTAINER);
  if (!c) return [...missing, `the ${CONTAINER} container`];
  const sc = c.securityContext ?? {};
  const psc = p.securityContext ?? {};
  need(
    (sc.runAsUser ?? psc.runAsUser) === uid && (sc.runAsGroup ?? psc.runAsGroup) === gid,
    `runAsUser ${uid} and runAsGroup ${gid}`,
  );
  need(sc.runAsNonRoot === true || psc.runAsNonRoot === true, 'runAsNonRoot');
  need(sc.allowPrivilegeEscalation === false, 'allowPrivilegeEscalation false');
  need(sc.privileged !== true, 'not privileged');
  need(sc.readOnlyRootFilesystem === true, 'a read-only root filesystem');
  need(
    (sc.capabilities?.drop ?? []).includes('ALL') && !(sc.capabilities?.add ?? []).length,
    'every capability dropped',
  );
  const seccomp = sc.seccompProfile?.type ?? psc.seccompProfile?.type;
  need(seccomp === 'RuntimeDefault' || seccomp === 'Localhost', 'seccomp RuntimeDefault');
  need(!sc.procMount || sc.procMount === 'Default', 'the default /proc mount');
  need(p.automountServiceAccountToken === false, 'automountServiceAccountToken false');
  need(p.enableServiceLinks === false, 'enableServiceLinks false');
  need(!p.hostNetwork && !p.hostPID && !p.hostIPC, 'no host network, PID or IPC namespace');
  need(!p.shareProcessNamespace, 'no shared process namespace');
  need(p.restartPolicy === 'Never', 'restartPolicy Never');
  need(
    typeof p.activeDeadlineSeconds === 'number' && p.activeDeadlineSeconds > 0,
    'a deadline (activeDeadlineSeconds)',
  );
  need((p.runtimeClassName ?? '') === spec.limits.runtime, `runtimeClassName ${spec.limits.runtime || '(none)'}`);
  const limits = c.resources?.limits ?? {};
  need(quantityBytes(limits['memory']) === spec.limits.memoryBytes, `memory limit ${spec.limits.memoryBytes}`);
  need(
    quantityMilli(limits['cpu']) === milliCpus(spec.limits.nanoCpus),
    `cpu limit ${milliCpus(spec.limits.nanoCpus)}m`,
  );
  // only the two emptyDirs, mounted where they belong; no host path, secret, projected token, ...
  const vols = p.volumes ?? [];
  need(
    vols.length === 2 &&
      vols.every((v) => v.emptyDir && Object.keys(v).filter((k) => k !== 'name' && k !== 'emptyDir').length === 0),
    'only the workspace and /tmp emptyDir volumes',
  );
  const mounts = (c.volumeMounts ?? []).map((m) => `${m.name}:${m.mountPath}:${m.readOnly === true}`).sort();
  need(
    mounts.join(',') === [`tmp:/tmp:false`, `workspace:${WORKDIR}:false`].sort().join(','),
    `only ${WORKDIR} and /tmp mounted`,
  );
  need(!(c.envFrom ?? []).length, 'no envFrom');
  const env = new Map((c.env ?? []).map((e) => [e.name, e.valueFrom ? null : (e.value ?? '')]));
  need(
    env.size === Object.keys(spec.env).length && Object.entries(spec.env).every(([k, v]) => env.get(k) === v),
    'exactly the environment asked for',
  );
  need(
    (pod.metadata?.ownerReferences ?? []).some((o) => o.kind === 'NetworkPolicy' && o.name === policyName),
    `ownership by its network policy ${policyName}`,
  );
  return missing;
}

/** Bytes of a memory quantity ("536870912", "512Mi", "1G"); NaN when unreadable. */
export function quantityBytes(q: string | undefined): number {
  const m = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|Ti|k|M|G|T)?$/.exec(q ?? '');
  if (!m) return NaN;
  const mult: Record<string, number> = {
    Ki: 1024,
    Mi: 1024 ** 2,
    Gi: 1024 ** 3,
    Ti: 1024 ** 4,
    k: 1e3,
    M: 1e6,
    G: 1e9,
    T: 1e12,
  };
  return Math.round(Number(m[1]) * (m[2] ? (mult[m[2]] ?? NaN) : 1));
}

/** Millicores of a CPU quantity ("500m", "1", "1.5"); NaN when unreadable. */
export function quantityMilli(q: string | undefined): number {
  const m = /^(\d+(?:\.\d+)?)(m)?$/.exec(q ?? '');
  if (!m) return NaN;
  return m[2] ? Number(m[1]) : Math.round(Number(m[1]) * 1000);
}
