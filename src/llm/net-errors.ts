// What went wrong on the network, read from Node's and undici's error codes.

/** A network failure, by what the user can do about it. */
export type NetFailureKind =
  'refused' | 'dns' | 'dns-transient' | 'connect-timeout' | 'unreachable' | 'reset' | 'tls' | 'other';

const KINDS: Record<string, NetFailureKind> = {
  ECONNREFUSED: 'refused',
  ENOTFOUND: 'dns',
  EAI_NONAME: 'dns',
  EAI_FAIL: 'dns',
  EAI_AGAIN: 'dns-transient',
  UND_ERR_CONNECT_TIMEOUT: 'connect-timeout',
  ETIMEDOUT: 'unreachable',
  ENETUNREACH: 'unreachable',
  EHOSTUNREACH: 'unreachable',
  EHOSTDOWN: 'unreachable',
  EADDRNOTAVAIL: 'unreachable',
  ECONNRESET: 'reset',
  EPIPE: 'reset',
  ECONNABORTED: 'reset',
  UND_ERR_SOCKET: 'reset',
  UND_ERR_CLOSED: 'reset',
};

/** Classify a thrown network error (looks through `cause` chains and AggregateErrors). */
export function netFailureKind(err: unknown): NetFailureKind {
  const codes = errorCodes(err);
  for (const code of codes) {
    const kind = KINDS[code];
    if (kind && kind !== 'reset') return kind;
  }
  if (
    codes.some((c) => c.startsWith('ERR_TLS') || c.startsWith('ERR_SSL') || /CERT|SELF_SIGNED|UNABLE_TO_VERIFY/.test(c))
  )
    return 'tls';
  if (codes.some((c) => KINDS[c] === 'reset')) return 'reset';
  return 'other';
}

/** Whether a failure of this kind, before the first token, is worth another attempt. */
export function isRetryableNetFailure(kind: NetFailureKind): boolean {
  return (
    kind === 'refused' ||
    kind === 'dns-transient' ||
    kind === 'connect-timeout' ||
    kind === 'unreachable' ||
    kind === 'reset'
  );
}

/** Every `code` found on the error, its causes and aggregated errors (depth-limited). */
export function errorCodes(err: unknown, depth = 0): string[] {
  if (depth > 5 || typeof err !== 'object' || err === null) return [];
  const out: string[] = [];
  const code: unknown = (err as { code?: unknown }).code;
  if (typeof code === 'string') out.push(code);
  const errors: unknown = (err as { errors?: unknown }).errors;
  if (Array.isArray(errors)) for (const e of errors) out.push(...errorCodes(e, depth + 1));
  out.push(...errorCodes((err as { cause?: unknown }).cause, depth + 1));
  return out;
}

/** A short message for a network error: its first meaningful message, with its code. */
export function netErrorText(err: unknown): string {
  const codes = errorCodes(err);
  const message = err instanceof Error && err.message ? err.message : String(err);
  return codes[0] && !message.includes(codes[0]) ? `${message} (${codes[0]})` : message;
}
