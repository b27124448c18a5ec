// The backend's one client of the Kubernetes API (only src/sandbox/kubernetes/ imports
// @kubernetes/client-node): the kubeconfig and its context, and each call the backend makes, with
// a deadline and an abort, failures typed by kube-errors.ts.
import {
  AuthorizationV1Api,
  CoreV1Api,
  KubeConfig,
  NetworkingV1Api,
  NodeV1Api,
  Observable,
  VersionApi,
  type RequestContext,
  type ResponseContext,
  type CoreV1Event,
  type V1NetworkPolicy,
  type V1Pod,
} from '@kubernetes/client-node';
import type WebSocket from 'ws';
import { HammerError, throwIfAborted } from '../../errors.js';
import type { KubeEndpoint } from './exec-socket.js';
import { isConflict, isNotFound, kubeFailure } from './kube-errors.js';
import { API_OUTAGE_MS, OutageWatch, throughOutage, unanswered } from './outage.js';

/** How long one API call may take. */
export const API_DEADLINE_MS = 30_000;

/** Which cluster, as whom, where. */
export interface KubeTarget {
  /** A kubeconfig file; empty: KUBECONFIG (one or more files) or ~/.kube/config, as kubectl. */
  kubeconfig?: string;
  /** A context of the kubeconfig; empty: its current context. */
  context?: string;
  /** The namespace of every object; empty: the context's, else "default". */
  namespace?: string;
}

/** How the client rides out an API server that does not answer. */
export interface KubeApiOptions {
  /** How long a call the server did not answer is tried again (default API_OUTAGE_MS); 0: never. */
  outageMs?: number;
}

/**
 * The parts of the API the backend uses, each call with a deadline and the caller's abort; a call
 * the server did not answer is tried again through a short outage (outage.ts).
 */
export class KubeApi {
  private readonly core: CoreV1Api;
  private readonly net: NetworkingV1Api;
  private readonly node: NodeV1Api;
  private readonly versions: VersionApi;
  private readonly authz: AuthorizationV1Api;
  /** The API server and how to open exec connections to it. */
  readonly endpoint: KubeEndpoint;

  private constructor(
    private readonly kc: KubeConfig,
    readonly context: string,
    readonly namespace: string,
    readonly server: string,
    /** Whether the server answered before, and how long a call it then does not answer is tried again. */
    private readonly outage: OutageWatch,
  ) {
    this.core = kc.makeApiClient(CoreV1Api);
    this.net = kc.makeApiClient(NetworkingV1Api);
    this.node = kc.makeApiClient(NodeV1Api);
    this.versions = kc.makeApiClient(VersionApi);
    this.authz = kc.makeApiClient(AuthorizationV1Api);
    this.endpoint = {
      server,
      outage,
      connectOptions: async () => {
        const opts: WebSocket.ClientOptions = {};
        await kc.applyToHTTPSOptions(opts);
        // the kubeconfig's agent is for https; a plain-http test server takes the default
        if (server.startsWith('http:')) delete opts.agent;
        return opts;
      },
    };
  }

  /** Load the kubeconfig and pick the context; CONFIG_INVALID when there is none or the context is unknown. */
  static load(target: KubeTarget, env: NodeJS.ProcessEnv = process.env, options: KubeApiOptions = {}): KubeApi {
    const kc = new KubeConfig();
    const file = target.kubeconfig || (env['KUBECONFIG'] && !env['KUBECONFIG'].includes(':') ? env['KUBECONFIG'] : '');
    try {
      if (file) kc.loadFromFile(file);
      else kc.loadFromDefault();
    } catch (err) {
      throw new HammerError('CONFIG_INVALID', `cannot read the kubeconfig${file ? ` ${file}` : ''}: ${String(err)}`, {
        hint: 'point KUBECONFIG (or [kubernetes] kubeconfig) at a kubeconfig file',
        cause: err,
      });
    }
    const names = kc.getContexts().map((c) => c.name);
    const context = target.context || kc.getCurrentContext();
    if (!context || !names.includes(context))
      throw new HammerError(
        'CONFIG_INVALID',
        context
          ? `the kubeconfig has no context ${JSON.stringify(context)}`
          : 'the kubeconfig names no current context',
        {
          hint: names.length
            ? `pass --kube-context with one of: ${names.join(', ')}`
            : 'point KUBECONFIG at a kubeconfig with a cluster (kubectl config view)',
        },
      );
    kc.setCurrentContext(context);
    const cluster = kc.getCurrentCluster();
    if (!cluster) throw new HammerError('CONFIG_INVALID', `the kubeconfig's context ${context} names no cluster`);
    const namespace = target.namespace || kc.getContextObject(context)?.namespace || 'default';
    return new KubeApi(kc, context, namespace, cluster.server, new OutageWatch(options.outageMs ?? API_OUTAGE_MS));
  }

  /** Per-call options: the caller's abort and the call's deadline. */
  private opts(signal?: AbortSignal) {
    const deadline = AbortSignal.timeout(API_DEADLINE_MS);
    const s = signal ? AbortSignal.any([signal, deadline]) : deadline;
    return {
      middleware: [
        {
          pre: (ctx: RequestContext) => {
            ctx.setSignal(s);
            return new Observable(Promise.resolve(ctx));
          },
          post: (ctx: ResponseContext) => new Observable(Promise.resolve(ctx)),
        },
      ],
      middlewareMergeStrategy: 'append' as const,
    };
  }

  private call<T>(what: string, signal: AbortSignal | undefined, fn: () => Promise<T>): Promise<T> {
    return this.retrying(what, signal, async () => {
      try {
        return await fn();
      } catch (err) {
        throw kubeFailure(err, what, signal);
      }
    });
  }

  /** `attempt` through a short outage: tried again while a server that answered before does not answer. */
  private async retrying<T>(what: string, signal: AbortSignal | undefined, attempt: () => Promise<T>): Promise<T> {
    throwIfAborted(signal, what);
    const answered = async (): Promise<T> => {
      try {
        const out = await attempt();
        this.outage.answered();
        return out;
      } catch (err) {
        // any answer but silence (a 404, a 403) says the server is there
        if (!unanswered((err as { cause?: unknown }).cause ?? err)) this.outage.answered();
        throw err;
      }
    };
    return throughOutage(answered, { budgetMs: this.outage.budget(), what, ...(signal ? { signal } : {}) });
  }

  /** The API server's version (gitVersion, platform). */
  version(signal?: AbortSignal) {
    return this.call('reading the cluster version', signal, () => this.versions.getCode(this.opts(signal)));
  }

  /**
   * Create a pod in the namespace. A create retried after the server went quiet may find the pod
   * its first try made (names are unique per sandbox): that pod is the answer.
   */
  createPod(body: V1Pod, signal?: AbortSignal): Promise<V1Pod> {
    const name = body.metadata?.name ?? '';
    let tries = 0;
    return this.call(`creating pod ${name}`, signal, async () => {
      try {
        tries++;
        return await this.core.createNamespacedPod({ namespace: this.namespace, body }, this.opts(signal));
      } catch (err) {
        if (tries > 1 && isConflict(err))
          return this.core.readNamespacedPod({ name, namespace: this.namespace }, this.opts(signal));
        throw err;
      }
    });
  }

  /** A pod, or null when it is gone. */
  readPod(name: string, signal?: AbortSignal): Promise<V1Pod | null> {
    return this.retrying('reading a pod', signal, async () => {
      try {
        return await this.core.readNamespacedPod({ name, namespace: this.namespace }, this.opts(signal));
      } catch (err) {
        if (isNotFound(err)) return null;
        throw kubeFailure(err, `reading pod ${name}`, signal);
      }
    });
  }

  /** Delete a pod at once (no grace period); a pod already gone is fine. */
  deletePod(name: string, signal?: AbortSignal): Promise<void> {
    return this.retrying(`deleting pod ${name}`, signal, async () => {
      try {
        await this.core.deleteNamespacedPod(
          { name, namespace: this.namespace, gracePeriodSeconds: 0, propagationPolicy: 'Background' },
          this.opts(signal),
        );
      } catch (err) {
        if (!isNotFound(err)) throw kubeFailure(err, `deleting pod ${name}`, signal);
      }
    });
  }

  /** Pods with these labels. */
  async listPods(labelSelector: string, signal?: AbortSignal): Promise<V1Pod[]> {
    const list = await this.call('listing pods', signal, () =>
      this.core.listNamespacedPod({ namespace: this.namespace, labelSelector }, this.opts(signal)),
    );
    return list.items;
  }

  /** Create a NetworkPolicy in the namespace (a retried create that finds its first try's policy takes it). */
  createPolicy(body: V1NetworkPolicy, signal?: AbortSignal): Promise<V1NetworkPolicy> {
    const name = body.metadata?.name ?? '';
    let tries = 0;
    return this.call(`creating network policy ${name}`, signal, async () => {
      try {
        tries++;
        return await this.net.createNamespacedNetworkPolicy({ namespace: this.namespace, body }, this.opts(signal));
      } catch (err) {
        if (tries > 1 && isConflict(err))
          return this.net.readNamespacedNetworkPolicy({ name, namespace: this.namespace }, this.opts(signal));
        throw err;
      }
    });
  }

  /** Delete a NetworkPolicy (its pod goes with it: the policy owns it); one already gone is fine. */
  deletePolicy(name: string, signal?: AbortSignal): Promise<void> {
    return this.retrying(`deleting network policy ${name}`, signal, async () => {
      try {
        await this.net.deleteNamespacedNetworkPolicy(
          { name, namespace: this.namespace, propagationPolicy: 'Background' },
          this.opts(signal),
        );
      } catch (err) {
        if (!isNotFound(err)) throw kubeFailure(err, `deleting network policy ${name}`, signal);
      }
    });
  }

  /** NetworkPolicies with these labels. */
  async listPolicies(labelSelector: string, signal?: AbortSignal): Promise<V1NetworkPolicy[]> {
    const list = await this.call('listing network policies', signal, () =>
      this.net.listNamespacedNetworkPolicy({ namespace: this.namespace, labelSelector }, this.opts(signal)),
    );
    return list.items;
  }

  /** The events about one pod, oldest first (what the scheduler and kubelet said). */
  async podEvents(name: string, signal?: AbortSignal): Promise<CoreV1Event[]> {
    const list = await this.call(`reading the events of pod ${name}`, signal, () =>
      this.core.listNamespacedEvent(
        { namespace: this.namespace, fieldSelector: `involvedObject.kind=Pod,involvedObject.name=${name}` },
        this.opts(signal),
      ),
    );
    return list.items;
  }

  /** The cluster's RuntimeClasses: name and handler. */
  async runtimeClasses(signal?: AbortSignal): Promise<{ name: string; handler: string }[]> {
    const list = await this.call('listing runtime classes', signal, () =>
      this.node.listRuntimeClass({}, this.opts(signal)),
    );
    return list.items.map((r) => ({ name: r.metadata?.name ?? '', handler: r.handler }));
  }

  /** Whether the current user may `verb` the resource in the namespace (a SelfSubjectAccessReview). */
  async canI(
    verb: string,
    resource: string,
    options: { group?: string; subresource?: string; signal?: AbortSignal } = {},
  ): Promise<boolean> {
    const review = await this.call(`asking whether hammer-box may ${verb} ${resource}`, options.signal, () =>
      this.authz.createSelfSubjectAccessReview(
        {
          body: {
            apiVersion: 'authorization.k8s.io/v1',
            kind: 'SelfSubjectAccessReview',
            spec: {
              resourceAttributes: {
                namespace: this.namespace,
                verb,
                resource,
                ...(options.group ? { group: options.group } : {}),
                ...(options.subresource ? { subresource: options.subresource } : {}),
              },
            },
          },
        },
        this.opts(options.signal),
      ),
    );
    return review.status?.allowed === true;
  }
}
