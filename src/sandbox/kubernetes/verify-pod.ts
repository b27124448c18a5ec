// The created pod, as the API server stored it (after every admission webhook had its say), checked
// against the hardening asked for; pure. Anything missing refuses the sandbox, as Docker's inspect does.
import type { V1Pod } from '@kubernetes/client-node';
import { WORKDIR } from '../hardening.js';
import type { SandboxSpec } from '../types.js';
import { parseSandboxUser } from '../user.js';
import { CONTAINER, milliCpus, type SeccompProfile } from './manifests.js';

/** What the pod was asked to be beyond the spec (the backend's settings). */
export interface VerifyOptions {
  /** The seccomp profile asked for; default RuntimeDefault. */
  seccompProfile?: SeccompProfile;
}

/** What is missing from `pod` for `spec` (empty when it is fully hardened). */
export function verifyPod(pod: V1Pod, spec: SandboxSpec, policyName: string, options: VerifyOptions = {}): string[] {
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
  // the profile asked for, on the container and (where set) the pod: a webhook that swaps in a
  // permissive Localhost profile, or Unconfined, is refused
  const seccomp = options.seccompProfile ?? { type: 'RuntimeDefault' };
  const sameProfile = (got: { type?: string; localhostProfile?: string } | undefined): boolean =>
    got?.type === seccomp.type &&
    (seccomp.type === 'Localhost' ? got.localhostProfile === seccomp.localhostProfile : !got.localhostProfile);
  need(
    sameProfile(sc.seccompProfile ?? psc.seccompProfile) && (!psc.seccompProfile || sameProfile(psc.seccompProfile)),
    seccomp.type === 'Localhost' ? `seccomp Localhost ${seccomp.localhostProfile}` : 'seccomp RuntimeDefault',
  );
  const appArmor = [sc.appArmorProfile?.type, psc.appArmorProfile?.type];
  need(
    appArmor.every((t) => t === undefined || t === 'RuntimeDefault'),
    'no AppArmor profile but the runtime default',
  );
  // an MCS level (OpenShift sets one) only narrows; a type, user or role can widen
  need(
    [sc.seLinuxOptions, psc.seLinuxOptions].every((o) => !o?.type && !o?.user && !o?.role),
    'no SELinux type, user or role',
  );
  need(!psc.sysctls?.length, 'no sysctls');
  // the groups asked for: the sandbox's gid as fsGroup, no other group
  need(!psc.supplementalGroups?.length, 'no supplemental groups');
  need(psc.fsGroup === gid, `fsGroup ${gid}`);
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
  // each with the size limit asked for (an emptyDir without one grows on the node's disk or memory)
  const sizes: Record<string, number> = { workspace: spec.limits.workspaceBytes, tmp: spec.limits.tmpBytes };
  need(
    vols
      .filter((v) => v.emptyDir)
      .every((v) => {
        const want = sizes[v.name];
        return want !== undefined && want > 0 && quantityBytes(v.emptyDir?.sizeLimit) === want;
      }),
    `a size limit on every emptyDir (workspace ${spec.limits.workspaceBytes}, tmp ${spec.limits.tmpBytes})`,
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
