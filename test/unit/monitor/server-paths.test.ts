// The server's reading of a request path: decoded segments, and nothing that climbs.
import { describe, expect, it } from 'vitest';
import { pathSegments } from '../../../src/monitor/server.js';

describe('pathSegments', () => {
  it('decodes each segment', () => {
    expect(pathSegments('/run/0/20261122T140501Z-aaaaaa/file/iter-01.patch')).toEqual([
      'run',
      '0',
      '20261122T140501Z-aaaaaa',
      'file',
      'iter-01.patch',
    ]);
    expect(pathSegments('/')).toEqual(['']);
    expect(pathSegments('/a%20b/')).toEqual(['a b', '']);
  });

  it('refuses segments that climb, hold a separator or a NUL, or do not decode', () => {
    for (const p of ['/run/..', '/run/%2E%2E', '/a/.', '/a%2Fb', '/a%5Cb', '/a%00', '/%E0%A4%A'])
      expect(pathSegments(p), p).toBeNull();
  });
});
