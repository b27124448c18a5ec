import { describe, expect, it } from 'vitest';
import {
  allowedHosts,
  proxyConfig,
  proxyFilter,
  refusedHosts,
  upstreamProxy,
} from '../../../src/images/proxy-config.js';

describe('the setup proxy configuration', () => {
  it('allows the toolchain registries plus the user hosts, as anchored patterns', () => {
    const hosts = allowedHosts('python', ['Mirror.Example.org', '*.corp.example']);
    expect(hosts).toEqual(['pypi.org', 'files.pythonhosted.org', 'mirror.example.org', '*.corp.example']);
    const filter = proxyFilter(hosts).split('\n');
    expect(filter).toContain('^(pypi\\.org:443|http://pypi\\.org(:80)?(/.*)?)$');
    const res = filter.map((f) => new RegExp(f, 'i'));
    const allowed = (target: string): boolean => res.some((r) => r.test(target));
    // CONNECT targets
    expect(allowed('pypi.org:443')).toBe(true);
    expect(allowed('a.b.corp.example:443')).toBe(true);
    expect(allowed('pypi.org.evil.example:443')).toBe(false);
    expect(allowed('172.17.0.1:443')).toBe(false);
    expect(allowed('pypi.org:8443')).toBe(false);
    expect(allowed('user@pypi.org:443')).toBe(false);
    // plain HTTP targets: port 80 only
    expect(allowed('http://pypi.org/simple/x/')).toBe(true);
    expect(allowed('HTTP://PYPI.ORG:80/simple/')).toBe(true);
    expect(allowed('http://pypi.org')).toBe(true);
    expect(allowed('http://pypi.org:8080/')).toBe(false);
    expect(allowed('http://pypi.org:080/')).toBe(false);
    expect(allowed('http://pypi.org@evil.example/')).toBe(false);
    expect(allowed('http://pypi.org.evil.example/')).toBe(false);
    expect(allowed('ftp://pypi.org/')).toBe(false);
  });

  it('denies by default, only port 443 for CONNECT, clients from the setup network', () => {
    const conf = proxyConfig({ clientSubnet: '172.30.0.0/16', env: {} });
    expect(conf).toContain('FilterDefaultDeny Yes');
    expect(conf).toContain('ConnectPort 443');
    expect(conf).toContain('FilterURLs On');
    expect(conf).toContain('Allow 172.30.0.0/16');
    expect(conf).not.toContain('Upstream');
  });

  it("chains to the host's proxy (credentials stay in the proxy container) and never lets a value start a directive", () => {
    expect(upstreamProxy({ HTTPS_PROXY: 'http://user:p%40ss@proxy.corp:3128' })).toEqual({
      line: 'Upstream http user:p@ss@proxy.corp:3128',
      display: 'http://proxy.corp:3128',
    });
    expect(upstreamProxy({ https_proxy: 'proxy.corp:8080' })?.line).toBe('Upstream http proxy.corp:8080');
    expect(upstreamProxy({ HTTPS_PROXY: 'http://u:a b@proxy:1' })).toBeNull();
    expect(upstreamProxy({})).toBeNull();
    const conf = proxyConfig({
      clientSubnet: '10.0.0.0/8',
      env: { HTTPS_PROXY: 'http://p:1', NO_PROXY: '.internal,"bad' },
    });
    expect(conf).toContain('Upstream http p:1');
    expect(conf).toContain('Upstream none ".internal"');
    expect(conf).not.toContain('bad');
  });

  it('reads the hosts it refused from its log', () => {
    const log =
      'NOTICE x: Proxying refused on filtered url "example.com:443"\nNOTICE y: Proxying refused on filtered url "http://example.com/x"\n' +
      'NOTICE z: Proxying refused on filtered url "http://registry.npmjs.org:8080/"\nNOTICE w: Proxying refused on filtered domain "old.example"\n';
    expect(refusedHosts(log)).toEqual(['example.com', 'registry.npmjs.org:8080', 'old.example']);
  });
});
