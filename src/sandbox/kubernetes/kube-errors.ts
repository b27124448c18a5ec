// Reading what the Kubernetes API answered, pure: its Status bodies, its HTTP codes, and failures to
// reach it, turned into typed errors that say what the cluster said and what to do.
import { z } from 'zod';
import { HammerError, abortError } from '../../errors.js';

/** The verbs the backend needs, for hints (see docs/kubernetes.md, the cluster's requirements). */
export const RBAC_HINT =
  'the backend needs, in its namespace: pods (create, get, list, delete), pods/exec (create, get), networkpolicies (create, get, list, delete), events (list); and, cluster-wide, runtimeclasses (list) for doctor and runtime = "auto". Ask the cluster admin for a Role and RoleBinding (see docs/kubernetes.md), or pick another context with --kube-context';

/** What to do when the cluster does not answer. */
export const CLUSTER_HINT =
  "check the kubeconfig (KUBECONFIG or ~/.kube/config) and its context ('kubectl --context <name> get pods' must work), or pass --kube-context";

const StatusBodySchema = z.object({
  message: z.string().optional(),
  reason: z.string().optional(),
  code: z.number().optional(),
});

/** The HTTP code and the Status the API answered with, from a client-node ApiException (or any error). */
export function apiAnswer(err: unknown): { code: number; reason: string; message: string } | null {
  if (typeof err !== 'object' || err === null || !('code' in err)) return null;
  const code = err.code;
  if (typeof code !== 'number' || code < 100 || code > 599) return null;
  const body: unknown = (err as { body?: unknown }).body;
  let parsed: unknown = body;
  if (typeof body === 'string') {
    try {
      parsed = JSON.parse(body);
    } catch {
      parsed = { message: body.slice(0, 500) };
    }
  }
  const s = StatusBodySchema.safeParse(parsed);
  return { code, reason: s.success ? (s.data.reason ?? '') : '', message: s.success ? (s.data.message ?? '') : '' };
}

/** True when the API said the object is not there. */
export function isNotFound(err: unknown): boolean {
  return apiAnswer(err)?.code === 404;
}

/** True when the API said the object exists already. */
export function isConflict(err: unknown): boolean {
  return apiAnswer(err)?.code === 409;
}

const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/** The system error code of a failed connection (the server did not answer), looking through `cause`s (fetch wraps them). */
export function unansweredCode(err: unknown): string | null {
  for (let e = err, depth = 0; typeof e === 'object' && e !== null && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (UNREACHABLE.has(code) || /^ERR_TLS|CERT|SELF_SIGNED/.test(code))) return code;
    const name = (e as { name?: unknown }).name;
    if (name === 'TimeoutError') return 'a request deadline';
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}

/** The message of any thrown value. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message.trim() : String(err);
}

/**
 * A typed error for a failed API call about `what`: ABORTED when the signal fired; the cluster not
 * answering is ENGINE_UNAVAILABLE; a quota or limit range is SANDBOX_QUOTA; PodSecurity admission
 * is SANDBOX_HARDENING; other refusals are SANDBOX_FORBIDDEN (with the RBAC the backend needs);
 * anything else SANDBOX_BROKEN, quoting the cluster.
 */
export function kubeFailure(err: unknown, what: string, signal?: AbortSignal): HammerError {
  if (signal?.aborted) return abortError(signal, what);
  if (err instanceof HammerError) return err;
  const answer = apiAnswer(err);
  if (answer) {
    const said = answer.message || answer.reason || `HTTP ${answer.code}`;
    if (answer.code === 401)
      return new HammerError('ENGINE_UNAVAILABLE', `${what}: the cluster refused the credentials (${said})`, {
        hint: CLUSTER_HINT,
        cause: err,
      });
    if (answer.code === 403 && /exceeded quota|must specify limits|maximum .* usage|minimum .* usage/i.test(said))
      return new HammerError('SANDBOX_QUOTA', `${what}: the cluster's quota refused it: ${said}`, {
        hint: 'lower [sandbox] memory, cpus, workspace_size or tmp_size, wait for other runs to end, or ask for a larger ResourceQuota / LimitRange in the namespace',
        cause: err,
      });
    if (answer.code === 403 && /PodSecurity|violates/i.test(said))
      return new HammerError('SANDBOX_HARDENING', `${what}: the cluster's admission refused the sandbox: ${said}`, {
        hint: 'the sandbox pod meets the "restricted" Pod Security Standard; an admission policy stricter than that refused it: ask the cluster admin what it requires',
        cause: err,
      });
    if (answer.code === 403)
      return new HammerError('SANDBOX_FORBIDDEN', `${what}: the cluster forbids it: ${said}`, {
        hint: RBAC_HINT,
        cause: err,
      });
    return new HammerError('SANDBOX_BROKEN', `${what} failed: the cluster answered ${answer.code}: ${said}`, {
      cause: err,
    });
  }
  const code = unansweredCode(err);
  if (code)
    return new HammerError('ENGINE_UNAVAILABLE', `${what} failed: the cluster did not answer (${code})`, {
      hint: CLUSTER_HINT,
      cause: err,
    });
  return new HammerError('SANDBOX_BROKEN', `${what} failed: ${messageOf(err)}`, { cause: err });
}
