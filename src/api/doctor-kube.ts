// `doctor --engine kubernetes`: the cluster answers, the backend may do what it needs (RBAC), the
// RuntimeClass, whether the cluster enforces NetworkPolicy (proven by a probe pod) and whether it
// can pull the sandbox image (the probe pod started).
import type { Config } from '../config/schema.js';
import { loadKubernetes } from './kube-load.js';
import { networkProofStore } from './network-proofs.js';
import { isHammerError, throwIfAborted } from '../errors.js';
import { resolveRuntime } from '../loop/runtime.js';
import type { EngineInfo, SandboxEngine } from '../sandbox/types.js';
import { check, failedCheck, type DoctorCheck } from './doctor-checks.js';
import { kubeImageRef } from './kube-images.js';
import type Dockerode from 'dockerode';

/** What the backend needs from the API, as SelfSubjectAccessReviews ask it (group, resource, verbs). */
export const KUBE_PERMISSIONS = [
  { group: '', resource: 'pods', verbs: ['create', 'get', 'list', 'delete'] },
  { group: '', resource: 'pods', subresource: 'exec', verbs: ['create', 'get'] },
  { group: '', resource: 'events', verbs: ['list'] },
  { group: 'networking.k8s.io', resource: 'networkpolicies', verbs: ['create', 'get', 'list', 'delete'] },
] as const;

/** The Kubernetes checks, and what the cluster said about itself. */
export async function kubernetesChecks(
  config: Config,
  env: NodeJS.ProcessEnv,
  docker: Dockerode | null,
  probeImage: string | null,
  signal?: AbortSignal,
): Promise<{ checks: DoctorCheck[]; info: EngineInfo | null }> {
  let kube: Awaited<ReturnType<typeof loadKubernetes>>;
  let api: ReturnType<typeof kube.openKubeApi>;
  let engine: SandboxEngine;
  let info: EngineInfo;
  try {
    kube = await loadKubernetes();
    api = kube.openKubeApi(config.kubernetes, env);
    engine = kube.kubeEngine(api, config.kubernetes, {
      ...(docker ? { imageRef: kubeImageRef(docker, config.kubernetes.registry) } : {}),
      // doctor proves the network afresh and keeps the proof for the runs after it
      proofs: networkProofStore(env),
    });
    info = await engine.info(signal ? { signal } : {});
  } catch (err) {
    return { checks: [failedCheck('cluster', err)], info: null };
  }
  const checks: DoctorCheck[] = [
    check(
      'cluster',
      'ok',
      `Kubernetes ${info.serverVersion} (${info.os}/${info.architecture}) at ${api.server}, context ${api.context}, namespace ${api.namespace}`,
    ),
  ];
  // RBAC: every verb the backend uses, asked of the API server itself
  try {
    const missing: string[] = [];
    for (const p of KUBE_PERMISSIONS)
      for (const verb of p.verbs) {
        const sub = 'subresource' in p ? p.subresource : undefined;
        const ok = await api.canI(verb, p.resource, {
          ...(p.group ? { group: p.group } : {}),
          ...(sub ? { subresource: sub } : {}),
          ...(signal ? { signal } : {}),
        });
        if (!ok) missing.push(`${verb} ${p.resource}${sub ? `/${sub}` : ''}`);
      }
    checks.push(
      missing.length === 0
        ? check('permissions', 'ok', `pods, pods/exec, events and networkpolicies in ${api.namespace}`)
        : check('permissions', 'fail', `not allowed in ${api.namespace}: ${missing.join(', ')}`, kube.RBAC_HINT),
    );
  } catch (err) {
    checks.push(failedCheck('permissions', err));
  }
  checks.push(runtimeClassCheck(info, config.sandbox.runtime));
  // what the cluster pulls: the pushed digest under [kubernetes] registry, else the loaded tag
  const pulled = docker && probeImage ? kubeImageRef(docker, config.kubernetes.registry) : null;
  let reference = probeImage;
  if (pulled && probeImage)
    try {
      reference = await pulled(probeImage, signal);
    } catch (err) {
      return { checks: [...checks, failedCheck('image access', err)], info };
    }
  checks.push(...(await networkChecks(engine, config, probeImage, reference, kube.IMAGE_PULL_HINT, signal)));
  return { checks, info };
}

/** The RuntimeClass sandboxes get: FAIL when the configured one does not exist. */
function runtimeClassCheck(info: EngineInfo, configured: string): DoctorCheck {
  const classes = info.runtimes.length ? info.runtimes.join(', ') : 'none';
  if (configured === 'auto')
    return info.gvisorRuntime
      ? check('runtime class', 'ok', `gVisor (RuntimeClass ${info.gvisorRuntime}); classes: ${classes}`)
      : check(
          'runtime class',
          'warn',
          `no RuntimeClass runs gVisor (runsc); pods get the node's default runtime; classes: ${classes}`,
          'install gVisor on the nodes and add a RuntimeClass with handler runsc for kernel isolation',
        );
  if (!configured)
    return check('runtime class', 'ok', `none asked for: the node's default runtime; classes: ${classes}`);
  return info.runtimes.includes(configured)
    ? check('runtime class', 'ok', `${configured}; classes: ${classes}`)
    : check(
        'runtime class',
        'fail',
        `[sandbox] runtime names RuntimeClass ${configured}, which the cluster does not have (classes: ${classes})`,
        'set [sandbox] runtime to one of the cluster\'s RuntimeClasses, "" for the default, or "auto"',
      );
}

/** The network probe: a pod of the sandbox image (so image access is checked too) under a deny-all policy. */
async function networkChecks(
  engine: SandboxEngine,
  config: Config,
  image: string | null,
  /** The reference the cluster pulls for `image` (its pushed digest, or its tag). */
  reference: string | null,
  pullHint: string,
  signal?: AbortSignal,
): Promise<DoctorCheck[]> {
  if (!image)
    return [
      check('network policy', 'warn', 'not probed: no sandbox image to probe with', "run 'hammer-box images build'"),
    ];
  try {
    throwIfAborted(signal, 'doctor');
    const runtime = await resolveRuntime(config.sandbox.runtime, engine, signal);
    const g = await engine.guarantees({ runtime, image, fresh: true, ...(signal ? { signal } : {}) });
    const access = check('image access', 'ok', `the cluster pulled and ran ${reference ?? image}`);
    if (g.network === 'policy') return [access, check('network policy', 'ok', g.networkDetail)];
    return [
      access,
      check(
        'network policy',
        config.sandbox.trusted_repo ? 'warn' : 'fail',
        `${g.networkDetail}; runs on untrusted repositories are refused (SANDBOX_NETWORK_UNPROVEN)`,
        'install a network plugin that enforces NetworkPolicy (Calico, Cilium, ...); only for repositories you trust, --trusted-repo or [sandbox] trusted_repo = true runs anyway',
      ),
    ];
  } catch (err) {
    if (isHammerError(err, 'SANDBOX_IMAGE_PULL'))
      return [
        check('image access', 'fail', err.message, pullHint),
        check('network policy', 'warn', 'not probed: the probe image did not start'),
      ];
    return [failedCheck('network policy', err)];
  }
}
