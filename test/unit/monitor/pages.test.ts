// The monitor's pages from runs written through the real RunStore: the list (trusted runs, the
// rest apart, the sources of a batch), a run, and only the artifacts its state names.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunSources } from '../../../src/api/run-sources.js';
import { bundleLinks, serverLinks } from '../../../src/monitor/links.js';
import { Pages } from '../../../src/monitor/pages.js';
import { RunReader } from '../../../src/monitor/reader.js';
import { mainElement, renderPage } from '../../../src/monitor/render/layout.js';
import { Section } from '../../../src/monitor/html.js';
import { ConversationStore } from '../../../src/state/conversation-store.js';
import { RunStore } from '../../../src/state/store.js';
import { conversation, exchange } from '../chat/fixtures.js';
import { writeSampleRun } from '../../helpers/monitor-runs.js';
import { TEST_KEY_ENV, TEST_STATE_KEY } from '../../helpers/state-key.js';

const A = '20261122T140501Z-aaaaaa';
const B = '20261123T140501Z-bbbbbb';
const UNSEALED = '20261124T140501Z-cccccc';
const CHAT = '20261125T140501Z-dddddd';

let root: string;
let pages: Pages;
const links = serverLinks();
const text = (h: { toString(): string }): string => h.toString().replace(/\s+/g, ' ');

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'hb-pages-'));
  const one = new RunStore({ dir: join(root, 'batch', 'task-1', '.hammer'), key: TEST_STATE_KEY });
  const two = new RunStore({ dir: join(root, 'batch', 'task-2', '.hammer'), key: TEST_STATE_KEY });
  await writeSampleRun(one, { runId: A, iterations: 1, end: { status: 'stable', reason: 'tests_pass' } });
  await writeSampleRun(two, { runId: B, start: new Date('2026-11-23T14:05:01Z'), iterations: 2, hostile: true });
  await writeFile(two.statePath(UNSEALED), '{"schema_version": 1}\n');
  const chats = new ConversationStore({ dir: join(root, 'batch', 'task-2', '.hammer'), key: TEST_STATE_KEY });
  await chats.create(
    conversation({
      id: CHAT,
      exchanges: [exchange(1, 'why <script>alert(1)</script> fail?', 'It \u001b[31msubtracts</b>.')],
    }),
  );
  pages = new Pages(new RunReader(await RunSources.open({ dirs: [join(root, 'batch')], env: TEST_KEY_ENV })));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('the list', () => {
  it('shows trusted runs newest first with where each comes from, and the untrusted apart', async () => {
    const page = text((await pages.list(links, null)).main);
    expect(page.indexOf(B)).toBeLessThan(page.indexOf(A));
    expect(page).toContain('<th>where</th>');
    expect(page).toContain(join('batch', 'task-1', '.hammer'));
    expect(page).toMatch(/state files not trusted \(1\)/);
    expect(page).toContain(`<code>${UNSEALED}</code>`);
    expect(page).not.toContain(`href="/run/1/${UNSEALED}/"`);
  });

  it('filters by status', async () => {
    const page = text((await pages.list(links, 'stable')).main);
    expect(page).toContain(A);
    expect(page).not.toContain(`>${B}<`);
  });
});

describe('a run', () => {
  it('is null for a run that is not there or a source that is not known', async () => {
    expect(await pages.run(links, { source: '0', runId: B })).toBeNull();
    expect(await pages.run(links, { source: '9', runId: A })).toBeNull();
  });

  it('renders its iterations, escaped, with the seal badge', async () => {
    const page = await pages.run(links, { source: '1', runId: B });
    const html = text(page!.main);
    expect(html).toContain('seal verified');
    expect(html).toContain('id="iter-2"');
    expect(html).not.toMatch(/<script|<img /);
    expect(page!.live).toEqual({ source: '1', runId: B });
  });

  it('shows only the artifacts its state names, PR_SUMMARY.md and its log', async () => {
    const ref = { source: '0', runId: A };
    expect(await pages.artifact(links, ref, 'iter-01-test.log')).not.toBeNull();
    expect(await pages.artifact(links, ref, 'PR_SUMMARY.md')).not.toBeNull();
    expect(await pages.artifact(links, ref, 'events.ndjson')).not.toBeNull();
    expect(await pages.artifact(links, ref, 'iter-05-test.log')).toBeNull();
    expect(await pages.artifact(links, { source: '1', runId: B }, 'PR_SUMMARY.md')).toBeNull(); // not written
  });
});

describe('the page around', () => {
  it('loads the live script on the server, and carries no script and a policy in a bundle', async () => {
    const page = await pages.run(links, { source: '0', runId: A });
    const served = renderPage({ title: 't', links, live: page!.live, main: page!.main });
    expect(served).toContain('<script type="module" src="/assets/live.js"></script>');
    expect(served).toContain(`data-events="/events?run=0%2F${A}"`);
    const bundled = renderPage({ title: 't', links: bundleLinks(2), live: 'none', main: page!.main });
    expect(bundled).not.toContain('<script');
    expect(bundled).toContain(
      '<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; style-src &#39;self&#39;;',
    );
    expect(bundled).toContain('href="../../assets/monitor.css"');
  });

  it('sends a live page only the sections it does not hold already', async () => {
    const page = (await pages.run(links, { source: '1', runId: B }))!;
    const parts = page.main as Section[];
    const iter1 = parts.find((p) => p instanceof Section && p.id === 'iter-1')!;
    const whole = mainElement({ links, live: page.live, main: page.main }).toString();
    const less = mainElement({ links, live: page.live, main: page.main }, new Set([iter1.sig])).toString();
    expect(whole).toContain(iter1.toString());
    expect(less).not.toContain(iter1.toString());
    expect(less).toContain(`<section id="iter-1" data-sig="${iter1.sig}" data-keep></section>`);
    expect(less).toContain('id="iter-2" class="part iteration');
  });
});

describe('conversations', () => {
  it('are listed under the runs and shown as their transcript, escaped', async () => {
    const list = text((await pages.list(links, null)).main);
    expect(list).toMatch(/conversations \(1\)/);
    expect(list).toContain(`href="/chat/1/${CHAT}/"`);
    expect(list).not.toContain('<script>alert');
    const page = await pages.conversation(links, { source: '1', runId: CHAT });
    const main = text(page!.main);
    expect(main).toContain('1. You');
    expect(main).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(main).toContain('It subtracts&lt;/b&gt;.');
    expect(main).not.toContain('\u001b');
    expect(await pages.conversation(links, { source: '0', runId: CHAT })).toBeNull();
    expect(await pages.conversation(links, { source: '9', runId: CHAT })).toBeNull();
  });
});
