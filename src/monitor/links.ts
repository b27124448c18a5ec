// Where a page links to: the server's URLs, or the relative file names of a static bundle. Every
// part that comes from a run (its source key, run id, artifact names) was checked before, and is
// percent-encoded here as well.
import type { RunStatus } from '../state/run-state.js';

/** One run: its source (see RunSources) and its id. */
export interface RunRef {
  source: string;
  runId: string;
}

/** The links of a page, for the server or for a bundle. */
export interface Links {
  /** The runs list, optionally filtered by status. */
  list(status?: RunStatus | null): string;
  run(ref: RunRef): string;
  /** One artifact of a run shown as a page (a log, a prompt, an answer). */
  artifact(ref: RunRef, name: string): string;
  /** A chat or plan conversation (its id has a run id's shape). */
  conversation(ref: RunRef): string;
  /** A static asset (style sheet, script). */
  asset(name: string): string;
  /** The live parts (server only): the event stream and the page's refreshable main part. */
  live: {
    events(ref: RunRef | null): string;
    fragment(ref: RunRef | null): string;
  } | null;
}

const enc = encodeURIComponent;

/** The monitor server's URLs. */
export function serverLinks(): Links {
  const run = (ref: RunRef): string => `/run/${enc(ref.source)}/${enc(ref.runId)}/`;
  return {
    list: (status) => (status ? `/?status=${enc(status)}` : '/'),
    run,
    artifact: (ref, name) => `${run(ref)}file/${enc(name)}`,
    conversation: (ref) => `/chat/${enc(ref.source)}/${enc(ref.runId)}/`,
    asset: (name) => `/assets/${enc(name)}`,
    live: {
      events: (ref) => (ref ? `/events?run=${enc(`${ref.source}/${ref.runId}`)}` : '/events'),
      fragment: (ref) => `${ref ? run(ref) : '/'}?part=main`,
    },
  };
}

/** A run's directory inside a bundle, relative to the bundle's root. */
export function bundleRunDir(ref: RunRef): string {
  return `runs/${ref.source}-${ref.runId}`;
}

/** A bundle's page for one artifact, inside its run's directory. */
export function bundleArtifactFile(name: string): string {
  return `${name}.html`;
}

/** A bundle's page for one conversation, relative to the bundle's root. */
export function bundleConversationFile(ref: RunRef): string {
  return `chats/${ref.source}-${ref.runId}.html`;
}

/** A bundle's runs list page for a status filter. */
export function bundleListFile(status?: RunStatus | null): string {
  return status ? `index-${status}.html` : 'index.html';
}

/** Relative links for a bundle page `depth` directories below the bundle's root (no server, no script). */
export function bundleLinks(depth: number): Links {
  const up = '../'.repeat(depth);
  return {
    list: (status) => `${up}${bundleListFile(status)}`,
    run: (ref) => `${up}${bundleRunDir(ref)}/index.html`,
    artifact: (ref, name) => `${up}${bundleRunDir(ref)}/${enc(bundleArtifactFile(name))}`,
    conversation: (ref) => `${up}${bundleConversationFile(ref)}`,
    asset: (name) => `${up}assets/${enc(name)}`,
    live: null,
  };
}
