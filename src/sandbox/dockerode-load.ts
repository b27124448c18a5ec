// Loading dockerode without the two stacks it requires up front and a run rarely needs: the gRPC
// session of BuildKit builds (dockerode/lib/session.js, with @grpc/grpc-js and protobufjs) and
// ssh2 for ssh:// engines (docker-modem/lib/ssh.js). Together they are most of dockerode's load
// time (~250 ms of ~330 on a 2-core machine), spent on the path to a run's first model request.
// Each module exports one function: its place in the module cache is taken by a stand-in that
// loads the real module on the first call (an ssh:// engine, a BuildKit build) and hands over.
import { createRequire } from 'node:module';
import type Dockerode from 'dockerode';

const require = createRequire(import.meta.url);

/** The modules deferred, by the package that resolves them. */
const DEFERRED: readonly { from: string; id: string }[] = [
  { from: 'dockerode', id: './lib/session.js' },
  { from: 'docker-modem', id: './lib/ssh.js' },
];

/** dockerode's constructor, with the modules above loaded on first use. */
export function loadDockerode(): typeof Dockerode {
  for (const d of DEFERRED) defer(d.from, d.id);
  return require('dockerode') as typeof Dockerode;
}

function defer(pkg: string, id: string): void {
  let path: string;
  try {
    // docker-modem is dockerode's dependency: resolved from dockerode, wherever npm put it
    const from = pkg === 'dockerode' ? require : createRequire(require.resolve('dockerode/package.json'));
    path = createRequire(from.resolve(`${pkg}/package.json`)).resolve(id);
  } catch {
    return; // a layout this does not know: dockerode loads everything itself, as it would anyway
  }
  if (require.cache[path]) return;
  let real: ((...args: unknown[]) => unknown) | undefined;
  const standIn = function (this: unknown, ...args: unknown[]): unknown {
    if (!real) {
      delete require.cache[path];
      real = require(path) as (...args: unknown[]) => unknown;
    }
    return real.apply(this, args);
  };
  const module = new (require('node:module') as typeof import('node:module'))(path);
  module.filename = path;
  module.loaded = true;
  module.exports = standIn;
  require.cache[path] = module;
}
