// Child process of the context benchmark: the first prompt build of a fresh process, as a run's first
// prompt is. argv: the repository, and what runs while the sandbox would start ("rehearsal": the
// parse cache's warm-up; "grammars": only loading the grammars, as before). Prints {wall, cpu} in ms.
import { resolveConfig } from '../src/config/resolve.js';
import { buildContext, ParseCache, warmContext } from '../src/context/index.js';
import { resolveUserRepo, Workbench } from '../src/git/index.js';
import { workbenchSource } from '../src/loop/context-source.js';
import { analyzeSource, languageForPath } from '../src/syntax/index.js';
import { contextCorpus } from './context-corpus/index.js';

/** What the sandbox's start gives the warm-up at least (it takes seconds). */
const SANDBOX_START_MS = 1_000;

async function main(dir: string, mode: string): Promise<void> {
  const { config } = await resolveConfig({ env: {} });
  const c = contextCorpus().find((k) => k.name.startsWith('py exception raised deep'))!;
  const repo = await resolveUserRepo(dir, 'main');
  const wb = await Workbench.create(repo, repo.baseCommit, { identity: { name: 'bench', email: 'bench@localhost' } });
  try {
    const listed = await wb.listTree(wb.head(), { maxEntries: 100_000 });
    const cache = new ParseCache();
    const paths = listed.entries.map((e) => e.path);
    if (mode === 'rehearsal') await warmContext(cache, paths);
    else {
      const languages = new Set(paths.map(languageForPath).filter((l) => l !== null));
      await Promise.all(
        [...languages].map((l) => analyzeSource(l, '', { definitions: true, imports: true, identifiers: true })),
      );
    }
    await new Promise((resolve) => setTimeout(resolve, SANDBOX_START_MS));
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const budget = {
      chars: config.prompt.budget_chars,
      fileMaxBytes: config.prompt.file_max_bytes,
      mapChars: config.prompt.map_chars,
    };
    await buildContext(
      { tree: listed.entries, directive: c.directive, failureOutput: c.output, changed: new Map(), budget },
      workbenchSource(wb, wb.head()),
      cache,
    );
    const used = process.cpuUsage(c0);
    process.stdout.write(
      `${JSON.stringify({ wall: performance.now() - t0, cpu: (used.user + used.system) / 1000 })}\n`,
    );
  } finally {
    await wb.dispose();
  }
}

await main(process.argv[2]!, process.argv[3] ?? 'rehearsal');
