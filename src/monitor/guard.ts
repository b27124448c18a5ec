// Who the monitor server answers, decided per request (pure): GET only, a Host header naming this
// server (127.0.0.1:<port> or localhost:<port>, against DNS rebinding), no cross-site subresource
// requests, and the random token: in the URL once (it becomes an HttpOnly, SameSite=Strict cookie
// and the browser is sent on without it), then in that cookie.
import { createHash, timingSafeEqual } from 'node:crypto';

/** The headers every answer carries: a policy that runs only this server's own scripts and styles. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cache-Control': 'no-store',
};

/** The parts of a request the guard looks at. */
export interface GuardRequest {
  method: string | undefined;
  url: string | undefined;
  host: string | undefined;
  cookie: string | undefined;
  secFetchSite: string | undefined;
  secFetchMode: string | undefined;
}

/** Go on (possibly setting the cookie and redirecting to drop the token from the URL), or refuse. */
export type GuardDecision =
  | { ok: true }
  | { ok: false; status: 303; location: string; setCookie: string }
  | { ok: false; status: 400 | 401 | 403 | 405; message: string };

/** The cookie that carries the token for one port (cookies are not kept apart by port). */
export function cookieName(port: number): string {
  return `hammer_box_monitor_${port}`;
}

function sameSecret(a: string, b: string): boolean {
  const h = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(h(a), h(b));
}

function cookieValue(header: string | undefined, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/** Decide whether to answer a request to the server on `port` whose token is `token`. */
export function guardRequest(req: GuardRequest, server: { port: number; token: string }): GuardDecision {
  if (req.method !== 'GET') return { ok: false, status: 405, message: 'the monitor answers only GET' };
  const hosts = [`127.0.0.1:${server.port}`, `localhost:${server.port}`];
  if (req.host === undefined || !hosts.includes(req.host.toLowerCase()))
    return { ok: false, status: 403, message: `this server answers only for ${hosts.join(' and ')}` };
  // a page elsewhere may link here (a navigation), never embed or fetch from here
  if (req.secFetchSite === 'cross-site' && req.secFetchMode !== 'navigate')
    return { ok: false, status: 403, message: 'cross-site requests are refused' };
  let url: URL;
  try {
    url = new URL(req.url ?? '/', `http://${hosts[0]}`);
  } catch {
    return { ok: false, status: 400, message: 'bad request' };
  }
  const given = url.searchParams.get('token');
  if (given !== null) {
    if (!sameSecret(given, server.token))
      return { ok: false, status: 401, message: 'wrong token: open the URL hammer-box monitor printed' };
    url.searchParams.delete('token');
    return {
      ok: false,
      status: 303,
      location: `${url.pathname}${url.search}`,
      setCookie: `${cookieName(server.port)}=${server.token}; HttpOnly; SameSite=Strict; Path=/`,
    };
  }
  const cookie = cookieValue(req.cookie, cookieName(server.port));
  if (cookie === null || !sameSecret(cookie, server.token))
    return { ok: false, status: 401, message: 'a token is required: open the URL hammer-box monitor printed' };
  return { ok: true };
}
