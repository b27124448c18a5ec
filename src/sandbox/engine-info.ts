// Facts about the engine from `docker info` and `docker version` answers (outside data, parsed).
import { z } from 'zod';
import type { EngineInfo } from './types.js';

const InfoSchema = z.object({
  OSType: z.string().nullish(),
  Architecture: z.string().nullish(),
  Runtimes: z.record(z.string(), z.unknown()).nullish(),
  DefaultRuntime: z.string().nullish(),
  SecurityOptions: z.array(z.string()).nullish(),
  CgroupVersion: z.string().nullish(),
  OperatingSystem: z.string().nullish(),
  Name: z.string().nullish(),
});

const VersionSchema = z.object({
  Version: z.string().nullish(),
  ApiVersion: z.string().nullish(),
  Os: z.string().nullish(),
  Arch: z.string().nullish(),
  Components: z.array(z.object({ Name: z.string().nullish(), Version: z.string().nullish() })).nullish(),
});

/** Build EngineInfo from the raw info and version answers. */
export function parseEngineInfo(info: unknown, version: unknown): EngineInfo {
  const i = InfoSchema.parse(info);
  const v = VersionSchema.parse(version);
  const securityOptions = i.SecurityOptions ?? [];
  // Entries look like "name=seccomp,profile=default" or "name=rootless".
  const names = securityOptions.map((o) => /(?:^|,)name=([^,]+)/.exec(o)?.[1] ?? o);
  // Podman's Docker-compatible API names itself in the version's components ("Podman Engine")
  const podman = (v.Components ?? []).some((c) => /^podman\b/i.test(c.Name ?? ''));
  return {
    product: podman ? 'podman' : 'docker',
    serverVersion: v.Version ?? '',
    apiVersion: v.ApiVersion ?? '',
    os: v.Os ?? i.OSType ?? '',
    architecture: v.Arch ?? i.Architecture ?? '',
    runtimes: Object.keys(i.Runtimes ?? {}).sort(),
    defaultRuntime: i.DefaultRuntime ?? '',
    securityOptions,
    rootless: names.includes('rootless'),
    userns: names.includes('userns'),
    cgroupVersion: i.CgroupVersion ?? '',
    ...platformOf(i.OperatingSystem ?? '', i.Name ?? ''),
  };
}

/** The desktop product an engine runs in, from how it names its OS and itself (measured answers of each). */
function platformOf(operatingSystem: string, name: string): { platform?: string } {
  if (/^Docker Desktop\b/i.test(operatingSystem)) return { platform: 'Docker Desktop' };
  if (/^OrbStack\b/i.test(operatingSystem) || name === 'orbstack') return { platform: 'OrbStack' };
  if (/rancher desktop/i.test(operatingSystem) || name === 'lima-rancher-desktop')
    return { platform: 'Rancher Desktop' };
  if (name === 'colima' || name.startsWith('colima-') || name === 'lima-colima' || name.startsWith('lima-colima-'))
    return { platform: 'Colima' };
  return {};
}
