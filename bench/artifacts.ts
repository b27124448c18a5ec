// Images as artifacts (`make bench BENCH=artifacts`, never part of the default run: it removes
// hammer-box's base, node toolchain and env images from the engine and makes them again). A node
// repository with one dependency, from a fresh engine to its first model request: once building
// everything (base by pull or debootstrap, toolchain image, env image by setup), once importing the
// archive an earlier run exported; beside them the same request with the images already there.
import { existsSync } from 'node:fs';
import { mkdtemp, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportImages, exportSet, importImages } from '../src/images/archive.js';
import { BASE_TAG } from '../src/images/labels.js';
import { packageRoot } from '../src/paths.js';
import { createDockerClient } from '../src/sandbox/index.js';
import { RunStore } from '../src/state/store.js';
import { loadStateKey } from '../src/state/state-key.js';
import { benchEnv, makeGitRepo, removeDir, startScriptedOllama } from './fixtures.js';
import { oneRun } from './images.js';
import { heading, printFigure } from './lib.js';

/** A node repository whose package-lock.json pins is-number (its env image is the one exported). */
function repoFiles(nonce: string): Record<string, string> {
  return {
    'package.json': `${JSON.stringify({ name: 'calc', version: '1.0.0', private: true, description: nonce, scripts: { test: 'node test.js' }, dependencies: { 'is-number': '7.0.0' } }, null, 2)}\n`,
    'package-lock.json': `${JSON.stringify({ name: 'calc', version: '1.0.0', lockfileVersion: 3, requires: true, packages: { '': { name: 'calc', version: '1.0.0', dependencies: { 'is-number': '7.0.0' } }, 'node_modules/is-number': { version: '7.0.0', integrity: 'sha512-41Cifkg6e8TylSpdtTpeLVMqvSBEVzTttHvERD741+pnZ8ANv0004MRL43QKPDlK9cGvNp6NZWZUBlbGXYxxng==' } } }, null, 2)}\n`,
    'test.js': "const assert = require('assert');\nassert.ok(require('is-number')(5));\n",
  };
}

/** Print the figures: first request on a fresh engine, without and with the import. */
export async function benchArtifacts(): Promise<void> {
  const docker = createDockerClient();
  heading('images as artifacts: a fresh engine to the first model request (removes and rebuilds images)');
  const root = packageRoot();
  const cli = join(root, 'dist', 'cli', 'main.js');
  if (!existsSync(cli)) throw new Error('build the CLI first (make build)');
  const server = await startScriptedOllama(() => 'NO_CHANGES', 'bench-model');
  const repo = await makeGitRepo(repoFiles(String(Date.now())), 'hb-bench-art-');
  const scratch = await mkdtemp(join(tmpdir(), 'hb-bench-art-'));
  const store = new RunStore({
    dir: join(repo, '.hammer'),
    key: await loadStateKey({ ...benchEnv(), XDG_STATE_HOME: scratch }),
  });
  try {
    const directive = join(scratch, 'directive.md');
    await writeFile(directive, 'Keep test.js passing.\n');
    const first = await oneRun(cli, root, repo, directive, server, scratch);
    const image = (await store.read(first.runId)).image!;
    const warm = await oneRun(cli, root, repo, directive, server, scratch);
    const archive = join(scratch, 'images.tar');
    const set = await exportSet(docker, [image.ref]);
    const exportStart = performance.now();
    await exportImages(docker, set, archive);
    const exportMs = performance.now() - exportStart;
    const size = (await stat(archive)).size;
    const removeAll = async (): Promise<void> => {
      for (const img of set)
        await docker
          .getImage(img.tag)
          .remove({ force: true })
          .catch(() => undefined);
    };
    await removeAll();
    const built = await oneRun(cli, root, repo, directive, server, scratch);
    await removeAll();
    const importStart = performance.now();
    await importImages(docker, archive);
    const importMs = performance.now() - importStart;
    const imported = await oneRun(cli, root, repo, directive, server, scratch);
    const same = (await store.read(imported.runId)).image?.id === image.id;
    process.stdout.write(
      `images: ${set.map((i) => i.tag).join(', ')}; archive ${(size / 1024 ** 2).toFixed(0)} MB, export ${(exportMs / 1000).toFixed(1)} s\n`,
    );
    printFigure({ name: 'reference: images present, spawn -> first /api/chat', samples: [warm.ms] });
    printFigure({ name: 'fresh engine, building base, toolchain and env images', samples: [built.ms] });
    printFigure({
      name: `fresh engine, importing the archive (import ${(importMs / 1000).toFixed(1)} s + run)`,
      samples: [importMs + imported.ms],
    });
    process.stdout.write(
      `the imported run used the exported env image: ${same ? 'yes' : 'NO'}; import is ${(built.ms / (importMs + imported.ms)).toFixed(1)}x faster than building (${BASE_TAG} included)\n`,
    );
  } finally {
    await server.close();
    await removeDir(repo);
    await removeDir(scratch);
  }
}
