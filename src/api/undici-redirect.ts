// Module resolve hook (node:module register) used by kube-load.ts: the Kubernetes client library's
// `import ... from 'undici'` resolves to hammer-box's own undici 7 instead of the undici 8 npm nests
// under the library in an installed package (undici 8 does not load on Node before 22.19).

interface ResolveContext {
  parentURL?: string | undefined;
}
interface ResolveResult {
  url: string;
  shortCircuit?: boolean;
}
type NextResolve = (specifier: string, context: ResolveContext) => Promise<ResolveResult>;

let target: string | undefined;

/** Receives the URL of the undici to use (register's `data`). */
export function initialize(data: { target?: unknown } | undefined): void {
  target = typeof data?.target === 'string' ? data.target : undefined;
}

/** `undici` imported from inside @kubernetes/client-node resolves to `target`; everything else as before. */
export async function resolve(specifier: string, context: ResolveContext, next: NextResolve): Promise<ResolveResult> {
  if (target && specifier === 'undici' && context.parentURL?.includes('/@kubernetes/client-node/'))
    return { url: target, shortCircuit: true };
  return next(specifier, context);
}
