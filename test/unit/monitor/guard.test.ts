// The monitor server's per-request decision: GET only, its own Host, no cross-site subresources,
// and the token (in the URL once, then in an HttpOnly SameSite=Strict cookie).
import { describe, expect, it } from 'vitest';
import { cookieName, guardRequest, type GuardRequest } from '../../../src/monitor/guard.js';

const server = { port: 4321, token: 'a-token-of-sufficient-length-0123456789' };
const req = (over: Partial<GuardRequest> = {}): GuardRequest => ({
  method: 'GET',
  url: '/',
  host: '127.0.0.1:4321',
  cookie: `${cookieName(4321)}=${server.token}`,
  secFetchSite: undefined,
  secFetchMode: undefined,
  ...over,
});

describe('guardRequest', () => {
  it('answers a GET with its Host and the cookie', () => {
    expect(guardRequest(req(), server)).toEqual({ ok: true });
    expect(guardRequest(req({ host: 'localhost:4321' }), server)).toEqual({ ok: true });
    expect(guardRequest(req({ host: 'LOCALHOST:4321' }), server)).toEqual({ ok: true });
    expect(guardRequest(req({ cookie: `other=1; ${cookieName(4321)}=${server.token}` }), server)).toEqual({ ok: true });
  });

  it('answers only GET', () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'HEAD', 'OPTIONS', undefined])
      expect(guardRequest(req({ method }), server)).toMatchObject({ ok: false, status: 405 });
  });

  it('refuses any other Host (DNS rebinding), a missing one, and another port', () => {
    for (const host of [
      undefined,
      'evil.example:4321',
      'localhost.evil.example:4321',
      '127.0.0.1',
      '127.0.0.1:80',
      '[::1]:4321',
      '0.0.0.0:4321',
    ])
      expect(guardRequest(req({ host }), server)).toMatchObject({ ok: false, status: 403 });
  });

  it('refuses cross-site subresource requests, but not a navigation (which still needs the token)', () => {
    expect(guardRequest(req({ secFetchSite: 'cross-site', secFetchMode: 'cors' }), server)).toMatchObject({
      status: 403,
    });
    expect(guardRequest(req({ secFetchSite: 'cross-site', secFetchMode: 'no-cors' }), server)).toMatchObject({
      status: 403,
    });
    expect(guardRequest(req({ secFetchSite: 'cross-site', secFetchMode: 'navigate' }), server)).toEqual({ ok: true });
    expect(
      guardRequest(req({ secFetchSite: 'cross-site', secFetchMode: 'navigate', cookie: undefined }), server),
    ).toMatchObject({ status: 401 });
  });

  it('requires the token: no cookie, a wrong cookie, a wrong token in the URL get 401', () => {
    expect(guardRequest(req({ cookie: undefined }), server)).toMatchObject({ ok: false, status: 401 });
    expect(guardRequest(req({ cookie: `${cookieName(4321)}=nope` }), server)).toMatchObject({ status: 401 });
    expect(guardRequest(req({ cookie: `${cookieName(1234)}=${server.token}` }), server)).toMatchObject({ status: 401 });
    expect(guardRequest(req({ url: '/?token=nope', cookie: undefined }), server)).toMatchObject({ status: 401 });
  });

  it('turns the token in the URL into a cookie and sends the browser on without it', () => {
    expect(guardRequest(req({ url: `/run/0/x/?part=main&token=${server.token}`, cookie: undefined }), server)).toEqual({
      ok: false,
      status: 303,
      location: '/run/0/x/?part=main',
      setCookie: `${cookieName(4321)}=${server.token}; HttpOnly; SameSite=Strict; Path=/`,
    });
  });
});
