// Images for integration tests. Built through hammer-box's own image builder (content-addressed,
// so a second call and a second test file reuse the same image).
import { readFile } from 'node:fs/promises';
import Docker from 'dockerode';
import { bootstrapBase, ensureToolchainImage } from '../../src/images/index.js';

const memo = new Map<string, Promise<string>>();

/** The python toolchain image tag, built if missing. */
export async function toolchainImage(name = 'python'): Promise<string> {
  let pending = memo.get(name);
  if (!pending) {
    pending = (async () => {
      const docker = new Docker();
      await bootstrapBase(docker);
      // Node.js comes from the npm registry: the CA bundle of a TLS-intercepting proxy, as runs get it
      const ca = process.env.SSL_CERT_FILE || process.env.NODE_EXTRA_CA_CERTS;
      const image = await ensureToolchainImage(docker, name, {
        ...(ca ? { registry: { caBundle: await readFile(ca) } } : {}),
        onProgress: process.env.HAMMER_TEST_VERBOSE ? (line) => process.stderr.write(`${line}\n`) : undefined,
      });
      return image.tag;
    })();
    // A failed build is not memoised, so a later test can try again.
    pending.catch(() => memo.delete(name));
    memo.set(name, pending);
  }
  return pending;
}
