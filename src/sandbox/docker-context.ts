// The docker CLI's own settings, read as the CLI reads them: config.json's current context (in
// DOCKER_CONFIG, default ~/.docker), and a context's endpoint in contexts/meta/<sha256 of its
// name>/meta.json, with its TLS material under contexts/tls/<same>/docker/. Pure: the caller reads files.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';

/** config.json: only the key engine discovery needs (everything else, credentials included, is ignored). */
const ConfigFileSchema = z.object({ currentContext: z.string().optional() });

/** A context's meta.json: its name and its Docker endpoint. */
const ContextMetaSchema = z.object({
  Name: z.string(),
  Endpoints: z
    .object({
      docker: z.object({ Host: z.string().optional(), SkipTLSVerify: z.boolean().optional() }).optional(),
    })
    .optional(),
});

/** The Docker endpoint a context names. */
export interface ContextEndpoint {
  name: string;
  /** The engine's address as DOCKER_HOST would give it (unix://, tcp://, ssh://); undefined when the context has none. */
  host: string | undefined;
  skipTlsVerify: boolean;
  /** The directory holding the context's ca.pem, cert.pem and key.pem. */
  tlsDir: string;
}

/** The directory the docker CLI keeps its config in: DOCKER_CONFIG, else ~/.docker. */
export function dockerConfigDir(env: Readonly<Record<string, string | undefined>>, home: string): string {
  const dir = env['DOCKER_CONFIG']?.trim();
  return dir ? dir : join(home, '.docker');
}

/** The current context config.json names ("" when none, or when the file is missing or not JSON the CLI could read). */
export function currentContext(configJson: string | undefined): string {
  if (configJson === undefined) return '';
  let raw: unknown;
  try {
    raw = JSON.parse(configJson);
  } catch {
    return '';
  }
  const parsed = ConfigFileSchema.safeParse(raw);
  return parsed.success ? (parsed.data.currentContext?.trim() ?? '') : '';
}

/** The directory name a context's files are kept under: the hex SHA-256 of its name. */
export function contextDirName(name: string): string {
  return createHash('sha256').update(name).digest('hex');
}

/** Where a context's meta.json is. */
export function contextMetaPath(configDir: string, name: string): string {
  return join(configDir, 'contexts', 'meta', contextDirName(name), 'meta.json');
}

/**
 * The endpoint in a context's meta.json; undefined when the file is missing, or its text when it
 * is not a context's meta.json (the caller says so).
 */
export function parseContextMeta(
  configDir: string,
  name: string,
  metaJson: string | undefined,
): ContextEndpoint | { invalid: string } | undefined {
  if (metaJson === undefined) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(metaJson);
  } catch (err) {
    return { invalid: err instanceof Error ? err.message : String(err) };
  }
  const parsed = ContextMetaSchema.safeParse(raw);
  if (!parsed.success) return { invalid: parsed.error.issues[0]?.message ?? 'not a context' };
  const docker = parsed.data.Endpoints?.docker;
  return {
    name,
    host: docker?.Host?.trim() || undefined,
    skipTlsVerify: docker?.SkipTLSVerify === true,
    tlsDir: join(configDir, 'contexts', 'tls', contextDirName(name), 'docker'),
  };
}
