#!/usr/bin/env node
// Add gVisor to a Docker daemon config: `node scripts/gvisor-config.mjs <daemon.json> <path to runsc>`.
// Keeps every other key (and other runtimes); a missing or empty file starts from {}; a file that is
// not a JSON object is never overwritten (exit 1, saying why). The file is replaced atomically.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

/** The runtime entry: no network inside gVisor (hammer-box sandboxes never have one). */
export const RUNSC_ARGS = ['--network=none'];

const [conf, runsc] = process.argv.slice(2);
if (!conf || !runsc) {
  console.error('usage: gvisor-config.mjs <daemon.json> <path to runsc>');
  process.exit(2);
}
let config = {};
if (existsSync(conf)) {
  const text = readFileSync(conf, 'utf8');
  try {
    config = text.trim() ? JSON.parse(text) : {};
  } catch (err) {
    console.error(`gvisor: ${conf} is not valid JSON (${err.message}); fix it, then run 'make gvisor' again`);
    process.exit(1);
  }
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    console.error(`gvisor: ${conf} is not a JSON object; fix it, then run 'make gvisor' again`);
    process.exit(1);
  }
  if (
    config.runtimes !== undefined &&
    (typeof config.runtimes !== 'object' || config.runtimes === null || Array.isArray(config.runtimes))
  ) {
    console.error(`gvisor: "runtimes" in ${conf} is not an object; fix it, then run 'make gvisor' again`);
    process.exit(1);
  }
}
config.runtimes = { ...(config.runtimes ?? {}), runsc: { path: runsc, runtimeArgs: RUNSC_ARGS } };
const tmp = `${conf}.hammer-box.${process.pid}`;
writeFileSync(tmp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o644 });
renameSync(tmp, conf);
