// What a Kubernetes sandbox is, as API objects (pure, so every field is unit-tested): a Pod with the
// Docker sandbox's hardening and a NetworkPolicy that denies it all ingress and egress. The policy
// is created first and owns the pod, so the pod never runs without it and goes when it goes.
import type { V1NetworkPolicy, V1Pod } from '@kubernetes/client-node';
import { KEEPER_SCRIPT } from './keeper.js';
import { WORKDIR } from '../hardening.js';
import { LABELS, MANAGED_BY, type Owner } from '../labels.js';
import type { SandboxSpec } from '../types.js';
import { parseSandboxUser } from '../user.js';

/** The sandbox container's name in its pod. */
export const CONTAINER = 'sandbox';

/** The label naming one sandbox (its pod and its policy select each other by it). */
export const SANDBOX_LABEL = 'hammer-box.sandbox';

/** The label set on probe pods (doctor's and guarantees' network checks). */
export const PROBE_LABEL = 'hammer-box.probe';

/** Settings of the Kubernetes backend that shape a pod (from config `[kubernetes]`). */
export interface PodOptions {
  namespace: string;
  /** Seconds after which the cluster stops the pod whatever happens (activeDeadlineSeconds). */
  deadlineSeconds: number;
  /** IfNotPresent for images pushed or preloaded under a content-addressed tag; Always or Never on request. */
  imagePullPolicy: 'IfNotPresent' | 'Always' | 'Never';
  /** The seccomp profile asked for (config `[kubernetes] seccomp_profile`); default RuntimeDefault. */
  seccompProfile?: SeccompProfile;
}

/** A pod's seccomp profile: the runtime's default, or a Localhost profile the user named. */
export type SeccompProfile = { type: 'RuntimeDefault' } | { type: 'Localhost'; localhostProfile: string };

/** The profile of `[kubernetes] seccomp_profile`: "RuntimeDefault", or "localhost/<path>" (a Localhost profile). */
export function seccompProfileOf(setting: string): SeccompProfile {
  return setting.startsWith('localhost/')
    ? { type: 'Localhost', localhostProfile: setting.slice('localhost/'.length) }
    : { type: 'RuntimeDefault' };
}

/** A label value: at most 63 of [A-Za-z0-9._-], starting and ending alphanumeric ("x" when nothing is left). */
export function labelValue(value: string): string {
  const v = value
    .replace(/[^A-Za-z0-9._-]/g, '-')
    .slice(0, 63)
    .replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, '');
  return v === '' ? 'x' : v;
}

/** A name for a run's objects: DNS-1123, lowercase, at most 63 characters, ending in `suffix`. */
export function objectName(runId: string, suffix: string): string {
  const safe = runId
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 40);
  return `hammer-box-${safe || 'run'}-${suffix}`.slice(0, 63).replace(/-+$/, '');
}

/** Labels (selectable, sanitised) and annotations (the exact owner values gc reads) of a run's objects. */
export function ownership(
  runId: string,
  sandbox: string,
  owner: Owner,
): { labels: Record<string, string>; annotations: Record<string, string> } {
  return {
    labels: {
      [LABELS.managedBy]: MANAGED_BY,
      [LABELS.runId]: labelValue(runId),
      [SANDBOX_LABEL]: sandbox,
    },
    annotations: {
      [LABELS.runId]: runId,
      [LABELS.created]: owner.now.toISOString(),
      [LABELS.ownerPid]: String(owner.pid),
      [LABELS.ownerHost]: owner.host,
    },
  };
}

/** CPU limit in millicores (at least 1). */
export function milliCpus(nanoCpus: number): number {
  return Math.max(1, Math.round(nanoCpus / 1e6));
}

/** The deny-all NetworkPolicy of one sandbox: no ingress, no egress, for the pod with its label. */
export function networkPolicyManifest(
  name: string,
  options: Pick<PodOptions, 'namespace'>,
  meta: { labels: Record<string, string>; annotations: Record<string, string> },
): V1NetworkPolicy {
  const sandbox = meta.labels[SANDBOX_LABEL] ?? name;
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { name, namespace: options.namespace, labels: meta.labels, annotations: meta.annotations },
    spec: {
      podSelector: { matchLabels: { [SANDBOX_LABEL]: sandbox } },
      policyTypes: ['Ingress', 'Egress'],
      ingress: [],
      egress: [],
    },
  };
}

/** The container's security context: the same on the pod and the container, so neither can be loosened alone. */
export function containerSecurity(
  uid: number,
  gid: number,
  seccompProfile: SeccompProfile = { type: 'RuntimeDefault' },
) {
  return {
    runAsUser: uid,
    runAsGroup: gid,
    runAsNonRoot: true,
    allowPrivilegeEscalation: false,
    privileged: false,
    readOnlyRootFilesystem: true,
    capabilities: { drop: ['ALL'] },
    seccompProfile,
  };
}

/**
 * The hardened pod of one sandbox: non-root, read-only root, every capability dropped, no privilege
 * escalation, seccomp RuntimeDefault, memory and CPU limits, no service account token, no service
 * links, no host namespaces, /workspace and /tmp as size-limited emptyDirs (memory-backed where the
 * Docker side uses tmpfs), a deadline, owned by its NetworkPolicy. PID 1 is the keeper (keeper.ts).
 */
export function podManifest(
  spec: SandboxSpec,
  name: string,
  options: PodOptions,
  meta: { labels: Record<string, string>; annotations: Record<string, string> },
  policy: { name: string; uid: string } | null,
): V1Pod {
  const { uid, gid } = parseSandboxUser(spec.user);
  const l = spec.limits;
  const memory = String(l.memoryBytes);
  const cpu = `${milliCpus(l.nanoCpus)}m`;
  const seccompProfile = options.seccompProfile ?? { type: 'RuntimeDefault' };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: options.namespace,
      labels: meta.labels,
      annotations: meta.annotations,
      // a probe pod (network-probe.ts) runs without a policy first, on purpose, and has none
      ...(policy
        ? {
            ownerReferences: [
              {
                apiVersion: 'networking.k8s.io/v1',
                kind: 'NetworkPolicy',
                name: policy.name,
                uid: policy.uid,
                blockOwnerDeletion: false,
              },
            ],
          }
        : {}),
    },
    spec: {
      restartPolicy: 'Never',
      activeDeadlineSeconds: options.deadlineSeconds,
      terminationGracePeriodSeconds: 1,
      automountServiceAccountToken: false,
      enableServiceLinks: false,
      hostNetwork: false,
      hostPID: false,
      hostIPC: false,
      shareProcessNamespace: false,
      ...(l.runtime ? { runtimeClassName: l.runtime } : {}),
      securityContext: {
        runAsUser: uid,
        runAsGroup: gid,
        runAsNonRoot: true,
        fsGroup: gid,
        seccompProfile,
      },
      containers: [
        {
          name: CONTAINER,
          image: spec.image,
          imagePullPolicy: options.imagePullPolicy,
          command: ['perl', '-e', KEEPER_SCRIPT],
          args: [],
          workingDir: WORKDIR,
          env: Object.entries(spec.env).map(([k, v]) => ({ name: k, value: v })),
          securityContext: containerSecurity(uid, gid, seccompProfile),
          resources: {
            limits: { memory, cpu },
            // memory as limited (a memory-backed volume counts in it); a quarter of the CPU reserved
            requests: { memory, cpu: `${Math.max(1, Math.round(milliCpus(l.nanoCpus) / 4))}m` },
          },
          volumeMounts: [
            { name: 'workspace', mountPath: WORKDIR },
            { name: 'tmp', mountPath: '/tmp' },
          ],
          stdin: false,
          tty: false,
        },
      ],
      volumes: [
        {
          name: 'workspace',
          emptyDir: l.workspaceBytes > 0 ? { medium: 'Memory', sizeLimit: String(l.workspaceBytes) } : {},
        },
        { name: 'tmp', emptyDir: { medium: 'Memory', sizeLimit: String(l.tmpBytes) } },
      ],
    },
  };
}
