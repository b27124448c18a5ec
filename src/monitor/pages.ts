// The monitor's pages from the runs: the list, a run, an artifact. The server and the bundle both
// build their pages here; only their links differ. An artifact is read only when the run's state
// names it (or it is PR_SUMMARY.md or the run's log), so no name from a request reaches a path.
import { artifactNames } from '../state/artifact-names.js';
import type { ArtifactHead } from '../state/run-inspect.js';
import type { RunStatus } from '../state/run-state.js';
import { runVerdict } from '../verdict/index.js';
import { html, type Html } from './html.js';
import type { Links, RunRef } from './links.js';
import type { ListedRun, RunReader } from './reader.js';
import { renderArtifactMain } from './render/artifact-page.js';
import type { IterationTexts } from './render/iteration.js';
import { renderConversationList, renderConversationMain, type ListedConversation } from './render/conversations.js';
import { renderListMain } from './render/list-page.js';
import { iterationSection, renderRunMain, renderUnreadableMain, type RunPageTexts } from './render/run-page.js';
import { trajectoryArtifacts } from './render/trajectory.js';
import { artifactsOf } from './run-view.js';

/** A page: its title and main part, whole or in parts (the layout adds the rest). */
export interface Page {
  title: string;
  main: Html | readonly Html[];
  /** The run it shows (null for the list), for its live updates; 'none' for a page that never changes. */
  live: RunRef | null | 'none';
}

/** Bytes of an answer shown inline. */
const ANSWER_BYTES = 256 * 1024;
/** Bytes of a patch laid out inline. */
const PATCH_BYTES = 1024 * 1024;
/** Bytes of PR_SUMMARY.md rendered. */
const SUMMARY_BYTES = 1024 * 1024;
/** Conversations listed from one source, at most. */
const MAX_CONVERSATIONS = 200;
/** Bytes of an artifact shown on its own page. */
export const ARTIFACT_PAGE_BYTES = 16 * 1024 * 1024;

/** The artifacts of a run a page may show: those its state names, PR_SUMMARY.md and the run's log. */
export function allowedArtifacts(listed: ListedRun): Set<string> {
  const s = listed.run.state;
  const names = s ? artifactsOf(s) : new Set<string>();
  for (const it of s?.iterations ?? []) for (const a of trajectoryArtifacts(it)) names.add(a);
  names.add(artifactNames.prSummary());
  names.add(artifactNames.events());
  return names;
}

/** Identifies one version of an artifact's text, for the cache of rendered sections. */
function stampKey(head: ArtifactHead | null): string {
  return head === null ? '-' : `${head.stamp.ino}:${head.stamp.size}:${head.stamp.mtimeMs}:${head.text.length}`;
}

/** Iteration sections kept, at most (the oldest are dropped first). */
const MAX_SECTIONS = 2_000;

/** Builds pages from a reader, keeping the iteration sections it rendered until they change. */
export class Pages {
  readonly #reader: RunReader;
  readonly #sections = new Map<string, { key: string; html: Html }>();

  constructor(reader: RunReader) {
    this.#reader = reader;
  }

  /** The runs list, filtered by status or not (and to the runs `only` keeps, for a bundle of some runs), then the conversations. */
  async list(links: Links, status: RunStatus | null, only?: (r: ListedRun) => boolean): Promise<Page> {
    const all = await this.#reader.listing();
    const runs = only ? all.filter(only) : all;
    const chats = only ? [] : await this.conversations();
    return {
      title: status ? `${status} runs · hammer-box` : 'runs · hammer-box',
      main: [renderListMain(runs, status, links, this.#reader.sources().length), renderConversationList(chats, links)],
      live: null,
    };
  }

  /** The conversations of every source whose seal verifies, the latest first (MAX_CONVERSATIONS a source). */
  async conversations(): Promise<ListedConversation[]> {
    const out: ListedConversation[] = [];
    for (const source of this.#reader.sources()) {
      const { conversations } = await source.conversations.list().catch(() => ({ conversations: [] }));
      for (const c of conversations.slice(0, MAX_CONVERSATIONS))
        out.push({ ref: { source: source.key, runId: c.id }, conversation: c });
    }
    return out.sort((a, b) => b.conversation.updated_at.localeCompare(a.conversation.updated_at));
  }

  /** A conversation's page, or null when its source has no such conversation (or it is not trusted). */
  async conversation(links: Links, ref: RunRef): Promise<Page | null> {
    const source = this.#reader.sources().find((s) => s.key === ref.source);
    if (source === undefined) return null;
    const c = await source.conversations.read(ref.runId).catch(() => null);
    if (c === null) return null;
    return {
      title: `${c.kind} · ${c.id} · hammer-box`,
      main: renderConversationMain({ ref, conversation: c }, links),
      live: 'none',
    };
  }

  /** A run's page, or null when there is no such run. */
  async run(links: Links, ref: RunRef): Promise<Page | null> {
    const listed = await this.#reader.run(ref);
    if (listed === null) return null;
    const s = listed.run.state;
    if (s === null) return { title: `${ref.runId} · hammer-box`, main: renderUnreadableMain(listed), live: listed.ref };
    const sections = new Map<number, Html>();
    const href = (name: string): string => links.artifact(listed.ref, name);
    for (const it of s.iterations) {
      const patchName = it.patch?.applied_artifact ?? it.patch?.artifact;
      const texts: IterationTexts = {
        answer: it.answer ? await this.#reader.artifact(listed.ref, it.answer.artifact, ANSWER_BYTES) : null,
        patch: patchName ? await this.#reader.artifact(listed.ref, patchName, PATCH_BYTES) : null,
      };
      // an iteration that did not change (its record, its texts' files, the links) is not rendered again
      const key = `${href('')}\n${stampKey(texts.answer)}\n${stampKey(texts.patch)}\n${JSON.stringify(it)}`;
      const cacheKey = `${listed.ref.source}/${listed.ref.runId}/${it.n}`;
      const cached = this.#sections.get(cacheKey);
      if (cached?.key === key) sections.set(it.n, cached.html);
      else {
        const html = iterationSection(it, texts, href);
        this.#sections.delete(cacheKey);
        this.#sections.set(cacheKey, { key, html });
        sections.set(it.n, html);
      }
    }
    const texts: RunPageTexts = {
      iterationSection: (it) => sections.get(it.n)!,
      summary: await this.#reader.artifact(listed.ref, artifactNames.prSummary(), SUMMARY_BYTES),
      eventsLog: (await this.#reader.artifact(listed.ref, artifactNames.events(), 0)) !== null,
    };
    for (const k of this.#sections.keys()) {
      if (this.#sections.size <= MAX_SECTIONS) break;
      this.#sections.delete(k);
    }
    return {
      title: `${runVerdict(s).outcome} · ${s.run_id} · hammer-box`,
      main: renderRunMain(listed, texts, links),
      live: listed.ref,
    };
  }

  /** An artifact's page, or null when the run does not name it or it is not there. */
  async artifact(links: Links, ref: RunRef, name: string): Promise<Page | null> {
    const listed = await this.#reader.run(ref);
    if (listed === null || !allowedArtifacts(listed).has(name)) return null;
    const head = await this.#reader.artifact(listed.ref, name, ARTIFACT_PAGE_BYTES);
    if (head === null) return null;
    return {
      title: `${name} · ${ref.runId} · hammer-box`,
      main: renderArtifactMain(listed.ref, name, head, links),
      live: 'none',
    };
  }
}

/** A 404 page's main part. */
export function notFoundMain(links: Links): Html {
  return html`<h1>not found</h1>
    <p><a href="${links.list()}">back to the runs</a></p>`;
}
