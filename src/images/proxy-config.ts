// What the setup proxy allows: the registries of the toolchain plus the user's [env] allow_hosts,
// nothing else (tinyproxy with FilterDefaultDeny), HTTPS (CONNECT) only to port 443 and plain HTTP
// only to port 80, clients only from the setup network. The filter matches each request's whole
// target (FilterURLs): `host:443` for CONNECT, `http://host[:80]/...` otherwise, so a plain request
// to an allowed host on another port, or with credentials before the host, is refused too. The host's own proxy, when hammer-box has one, becomes tinyproxy's upstream, so
// its credentials stay in the proxy container and never reach setup. Pure, so it is unit-tested.
import { HOST_PATTERN } from '../config/host-pattern.js';

/** The port the proxy listens on inside the setup network. */
export const PROXY_PORT = 3128;

/** Registries each toolchain's default setup needs. */
export const TOOLCHAIN_REGISTRIES: Readonly<Record<string, readonly string[]>> = {
  python: ['pypi.org', 'files.pythonhosted.org'],
  node: ['registry.npmjs.org', 'registry.yarnpkg.com', 'repo.yarnpkg.com'],
  go: ['proxy.golang.org', 'sum.golang.org'],
  rust: ['index.crates.io', 'static.crates.io', 'crates.io'],
};

/** The hosts setup of `toolchain` may reach: its registries and the user's patterns, deduplicated. */
export function allowedHosts(toolchain: string, extra: readonly string[]): string[] {
  return [...new Set([...(TOOLCHAIN_REGISTRIES[toolchain] ?? []), ...extra.map((h) => h.toLowerCase())])];
}

/**
 * tinyproxy's filter file: one anchored extended regular expression per allowed host pattern,
 * over the request's target: `host:443` (CONNECT) or `http://host`, `http://host:80`, either
 * with a path.
 */
export function proxyFilter(hosts: readonly string[]): string {
  return hosts
    .filter((h) => HOST_PATTERN.test(h))
    .map((h) => {
      const wildcard = h.startsWith('*.');
      const domain = (wildcard ? h.slice(2) : h).replace(/\./g, '\\.');
      const host = wildcard ? `([a-z0-9-]+\\.)+${domain}` : domain;
      return `^(${host}:443|http://${host}(:80)?(/.*)?)$`;
    })
    .join('\n');
}

/** An upstream proxy from the host's environment (HTTPS_PROXY, then HTTP_PROXY, either case), or null. */
export function upstreamProxy(env: NodeJS.ProcessEnv): { line: string; display: string } | null {
  const raw = env.HTTPS_PROXY || env.https_proxy || env.HTTP_PROXY || env.http_proxy;
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw.includes('://') ? raw : `http://${raw}`);
  } catch {
    return null;
  }
  const type =
    url.protocol === 'http:'
      ? 'http'
      : url.protocol === 'socks5:'
        ? 'socks5'
        : url.protocol === 'socks4:'
          ? 'socks4'
          : null;
  if (!type || !url.hostname) return null;
  const port = url.port || (type === 'http' ? '80' : '1080');
  const auth = url.username ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}@` : '';
  // tinyproxy's config syntax has no quoting for these fields: refuse anything that could start a new directive
  if (/[\s"]/.test(auth + url.hostname)) return null;
  return { line: `Upstream ${type} ${auth}${url.hostname}:${port}`, display: `${type}://${url.hostname}:${port}` };
}

/** Hosts of NO_PROXY that go direct rather than through the upstream. */
function noProxyLines(env: NodeJS.ProcessEnv): string[] {
  const raw = env.NO_PROXY || env.no_proxy || '';
  return raw
    .split(',')
    .map((h) => h.trim().replace(/^\*?\./, '.'))
    .filter((h) => /^\.?[a-z0-9.-]+$/i.test(h) && h !== '.')
    .map((h) => `Upstream none "${h}"`);
}

/** The tinyproxy configuration: listen on PROXY_PORT, clients from `clientSubnet` only, allowlist filter, upstream if any. */
export function proxyConfig(opts: { clientSubnet: string; env: NodeJS.ProcessEnv }): string {
  const upstream = upstreamProxy(opts.env);
  return [
    `Port ${PROXY_PORT}`,
    'Listen 0.0.0.0',
    'Timeout 120',
    'MaxClients 100',
    'LogLevel Connect',
    `Allow ${opts.clientSubnet}`,
    'FilterDefaultDeny Yes',
    'Filter "/tmp/filter"',
    'FilterType ere',
    'FilterURLs On',
    'FilterCaseSensitive No',
    'ConnectPort 443',
    'DisableViaHeader Yes',
    ...(upstream ? [upstream.line, ...noProxyLines(opts.env)] : []),
  ].join('\n');
}

/** Hosts the proxy refused (with the port, when not the default), from its log (so SETUP_FAILED can name them). */
export function refusedHosts(log: string): string[] {
  const out = new Set<string>();
  for (const m of log.matchAll(/Proxying refused on filtered (?:domain|url) "([^"]{1,2000})"/g)) {
    const target = m[1]!.replace(/^[a-z]+:\/\//i, '');
    const host = target
      .split('/')[0]!
      .replace(/^.*@/, '')
      .replace(/:(443|80)$/, '');
    if (host !== '') out.add(host.slice(0, 253));
  }
  return [...out];
}
