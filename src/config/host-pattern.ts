// What [env] allow_hosts accepts (the setup proxy lets exactly these through: src/images/proxy-config.ts).

/** A host pattern of [env] allow_hosts: a host name, or `*.` and a domain for every host under it. */
export const HOST_PATTERN = /^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i;
