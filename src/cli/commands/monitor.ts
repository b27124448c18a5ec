// `hammer-box monitor`
import { pickRunId } from '../../api/run-ref.js';
import { RunSources } from '../../api/run-sources.js';
import { HammerError } from '../../errors.js';
import { writeBundle } from '../../monitor/bundle.js';
import { serverLinks } from '../../monitor/links.js';
import { openInBrowser } from '../../monitor/open-browser.js';
import { startMonitorServer } from '../../monitor/server.js';
import { sanitizeLine } from '../../text/sanitize.js';
import { isRunId } from '../../state/run-id.js';
import { interruptSignal } from '../interrupt.js';

export default async function monitor(f: {
  repo?: string;
  dir?: string[];
  port?: number;
  open?: boolean;
  bundle?: string;
  run?: string;
}): Promise<number> {
  const dirs = f.dir ?? [];
  const sources = await RunSources.open({
    ...(f.repo !== undefined || dirs.length === 0 ? { repo: f.repo ?? '.' } : {}),
    dirs,
    env: process.env,
  });
  const where = sources
    .list()
    .map((s) => sanitizeLine(s.label))
    .join(', ');
  // --run: a run id, its start, or the letters after its dash
  const runId =
    f.run === undefined
      ? undefined
      : pickRunId((await Promise.all(sources.list().map((s) => s.inspector.runIds()))).flat(), f.run);
  if (f.bundle !== undefined) {
    const report = await writeBundle({
      sources,
      out: f.bundle,
      // below these, a repository may have committed what is on the way: no level is followed
      roots: [process.cwd(), f.repo ?? '.', ...dirs],
      ...(runId === undefined ? {} : { runId }),
    });
    process.stderr.write(
      `hammer-box: wrote ${report.runs} run${report.runs === 1 ? '' : 's'} (${report.files} files) to ${sanitizeLine(report.dir)}\n`,
    );
    process.stdout.write(`${report.index}\n`);
    return 0;
  }
  let runPath = '/';
  if (runId !== undefined) {
    const source = isRunId(runId) ? await sources.find(runId) : undefined;
    if (source === undefined)
      throw new HammerError('RUN_NOT_FOUND', `no run ${JSON.stringify(runId)} in ${where || 'the runs given'}`, {
        hint: 'list the runs with: hammer-box runs list',
      });
    runPath = serverLinks().run({ source: source.key, runId });
  }
  const signal = interruptSignal();
  const server = await startMonitorServer({ sources, port: f.port ?? 0 });
  const url = server.url.replace('/?', `${runPath}?`);
  process.stdout.write(`${url}\n`);
  process.stderr.write(
    `hammer-box: monitoring runs in ${where || 'nothing yet'} on 127.0.0.1:${server.port}; open the URL above (Ctrl-C stops)\n`,
  );
  let cleanup: (() => Promise<void>) | null = null;
  if (f.open) {
    try {
      cleanup = await openInBrowser(url);
    } catch (err) {
      process.stderr.write(`hammer-box: could not open a browser (${(err as Error).message}); open the URL yourself\n`);
    }
  }
  await new Promise<void>((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await server.close();
  await cleanup?.();
  return 0;
}
