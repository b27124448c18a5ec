// The Kubernetes sandbox pod as the API server admitted it, after every mutating webhook: one that
// swaps the seccomp profile for a permissive Localhost one (or Unconfined), adds supplemental
// groups, changes fsGroup, or drops an emptyDir's size limit gets the pod refused and deleted before
// anything runs in it; and `workspace_size = 0` (an uncapped emptyDir) is refused before anything is
// made. Against a fake API server (no cluster here). The controls: the pod as asked, and a Localhost
// profile the user configured, are accepted.
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isHammerError } from '../../src/errors.js';
import { KubeApi, KubeSandboxEngine } from '../../src/sandbox/kubernetes/index.js';
import { seccompProfileOf } from '../../src/sandbox/kubernetes/manifests.js';
import type { SandboxSpec } from '../../src/sandbox/types.js';
import { startFakeKube, type FakeKube, type FakePod } from '../helpers/fake-kube.js';
import { tempDir } from '../helpers/fixture-repo.js';
import { testEnv } from '../integration/run-support.js';
import { plantCanary, type Canary } from './support/canary.js';
import { runCli } from './support/cli.js';
import { attackFileHooks } from './support/hooks.js';
import { attack } from './support/record.js';

const { cleanups } = attackFileHooks();

const spec: SandboxSpec = {
  image: 'hammer-box/python:abc',
  runId: 'attack-run',
  user: '10001:10001',
  env: { HOME: '/tmp' },
  limits: {
    memoryBytes: 256 * 1024 ** 2,
    nanoCpus: 5e8,
    pidsLimit: 64,
    tmpBytes: 1024 ** 2,
    workspaceBytes: 16 * 1024 ** 2,
    nofile: 256,
    runtime: '',
  },
};

let canary: Canary;
let fake: FakeKube | undefined;
beforeAll(async () => {
  canary = await plantCanary();
  cleanups.push(() => canary.remove());
});
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** An engine on a fake cluster whose admission changes each pod with `webhook`. */
async function engineWith(
  webhook: ((pod: FakePod) => void) | undefined,
  seccomp = 'RuntimeDefault',
): Promise<KubeSandboxEngine> {
  fake = await startFakeKube(webhook ? { mutatePod: webhook } : {});
  const dir = await tempDir('hb-kube-attack-');
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'kubeconfig'), fake.kubeconfig);
  const api = KubeApi.load({ kubeconfig: join(dir, 'kubeconfig') });
  return new KubeSandboxEngine({
    api,
    startTimeoutSeconds: 30,
    deadlineSeconds: 600,
    imagePullPolicy: 'IfNotPresent',
    seccompProfile: seccompProfileOf(seccomp),
  });
}

const WEBHOOKS: [string, (pod: FakePod) => void, RegExp][] = [
  [
    'swaps in a permissive Localhost seccomp profile',
    (pod) => {
      pod.spec.containers[0].securityContext.seccompProfile = { type: 'Localhost', localhostProfile: 'allow-all.json' };
      pod.spec.securityContext.seccompProfile = { type: 'Localhost', localhostProfile: 'allow-all.json' };
    },
    /seccomp RuntimeDefault/,
  ],
  [
    'sets the pod seccomp profile Unconfined',
    (pod) => {
      pod.spec.securityContext.seccompProfile = { type: 'Unconfined' };
    },
    /seccomp RuntimeDefault/,
  ],
  [
    'adds supplemental groups (root, docker)',
    (pod) => {
      pod.spec.securityContext.supplementalGroups = [0, 999];
    },
    /no supplemental groups/,
  ],
  [
    'changes fsGroup to 0',
    (pod) => {
      pod.spec.securityContext.fsGroup = 0;
    },
    /fsGroup 10001/,
  ],
  [
    "drops the workspace emptyDir's size limit",
    (pod) => {
      pod.spec.volumes[0].emptyDir = {};
    },
    /a size limit on every emptyDir/,
  ],
];

describe('the sandbox pod as admitted', () => {
  it.each(WEBHOOKS.map(([what, hook, why]) => [what, hook, why] as const))(
    'a webhook that %s: refused, pod and policy deleted, nothing run',
    async (what, hook, why) => {
      const engine = await engineWith(hook);
      const err = await engine.create(spec).catch((e: unknown) => e);
      await attack(
        `a mutating webhook that ${what}`,
        'SANDBOX_HARDENING; pod and policy deleted; no exec',
        async () => {
          expect(isHammerError(err, 'SANDBOX_HARDENING'), String(err)).toBe(true);
          expect((err as Error).message).toMatch(why);
          expect(fake!.pods.size).toBe(0);
          expect(fake!.policies.size).toBe(0);
          expect(fake!.execs).toEqual([]);
          expect(await canary.untouched()).toBe(true);
          return (err as Error).message.slice(0, 120);
        },
      );
    },
  );

  it('control: the pod as asked, and a Localhost profile the user configured, are accepted', async () => {
    await attack(
      'control for the admitted-pod check',
      'the pod as asked runs; so does the configured Localhost profile',
      async () => {
        for (const seccomp of ['RuntimeDefault', 'localhost/profiles/hammer.json']) {
          const engine = await engineWith(undefined, seccomp);
          const sandbox = await engine.create(spec);
          const [pod] = [...fake!.pods.values()];
          expect(pod?.spec['securityContext'].seccompProfile).toEqual(seccompProfileOf(seccomp));
          await sandbox.destroy();
          await fake!.close();
          fake = undefined;
        }
        return 'RuntimeDefault and localhost/profiles/hammer.json pods created and removed';
      },
    );
  });

  it('workspace_size = 0 with engine = "kubernetes" is refused before anything is made', async () => {
    const dir = await tempDir('hb-kube-zero-');
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const config = join(dir, 'config.toml');
    await writeFile(config, '[sandbox]\nengine = "kubernetes"\nworkspace_size = 0\n');
    const r = await runCli(['doctor', '--config', config], testEnv());
    await attack('workspace_size = 0 on Kubernetes (an uncapped emptyDir)', 'CONFIG_INVALID naming the line', () => {
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain('error [CONFIG_INVALID]');
      expect(r.stderr).toMatch(/config\.toml:3: sandbox\.workspace_size: must be above 0 with engine = "kubernetes"/);
      return (
        r.stderr
          .split('\n')
          .find((l) => l.includes('workspace_size'))
          ?.trim()
          .slice(0, 120) ?? ''
      );
    });
  });
});
