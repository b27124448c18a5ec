// The prompt's stable middle: the repository note, the repository map and the shown files, in an
// order that keeps what does not change between iterations first (a local server reuses that prefix).
import type { RepositoryMap, ShownFile, ShownReason } from '../context/index.js';
import { fenceFor } from '../text/markdown.js';
import { sanitizeText } from '../text/sanitize.js';

/** What the context layer chose for one prompt. */
export interface PromptContext {
  files: readonly ShownFile[];
  map: RepositoryMap | null;
  wholeRepository: boolean;
  sourceFiles: number;
}

const REASON_LABEL: Record<ShownReason, string> = {
  directive: 'named in the directive',
  failure: 'in the failing test output',
  import: 'imported by the failing code',
  changed: 'changed so far',
  map: 'in the repository map',
  asked: 'asked for',
  repository: 'small repository',
};

/**
 * The order files are shown in: tests, then code from the least to the most relevant. The code most
 * likely to change sits last (nearest the question), so consecutive prompts share what comes before
 * the first change; parts changed so far are shown after all files (see renderFocusParts).
 */
export function displayOrder(files: readonly ShownFile[]): ShownFile[] {
  return [...files.filter((f) => f.test), ...files.filter((f) => !f.test).reverse()];
}

/** The repository map section, or '' when there is none. */
export function renderMap(map: RepositoryMap | null): string {
  if (map === null) return '';
  return `# Repository map\n\nDefinitions in other files the failing code may reach (line: signature):\n\n${block(sanitizeText(map.text))}`;
}

/** The shown files section: each file whole, or its regions with line markers. */
export function renderShownFiles(context: PromptContext): string {
  if (context.files.length === 0) return '# Relevant files\n\nNone selected.';
  const parts: string[] = ['# Relevant files'];
  if (context.wholeRepository) {
    parts.push(`The repository is small: all ${context.sourceFiles} source files are shown whole.`);
  }
  if (context.files.some((f) => !f.whole)) {
    parts.push(
      'A file too big to show whole is shown as regions: "[lines A-B]" starts a region at line A, ' +
        '"[... lines X-Y not shown ...]" marks lines left out. Neither marker is part of the file.',
    );
  }
  for (const f of displayOrder(context.files)) {
    const how = f.whole ? '' : '; regions';
    parts.push(`## ${oneLine(f.path)} (${oneLine(fileReason(f))}${how})\n\n${block(sanitizeText(f.stableText))}`);
  }
  return parts.join('\n\n');
}

/** The parts in focus of the shown files, as they are now ('' when there are none). */
export function renderFocusParts(context: PromptContext): string {
  const parts: string[] = [];
  for (const f of displayOrder(context.files)) {
    for (const p of f.focusParts) {
      const changed = p.changed ? ', changed so far' : '';
      parts.push(
        `## ${oneLine(f.path)}: ${oneLine(p.label)} (lines ${p.start}-${p.end}${changed})\n\n${block(sanitizeText(p.text))}`,
      );
    }
  }
  if (parts.length === 0) return '';
  return (
    '# Code in focus, as it is now\n\nThe definitions of the files above that the failure points at, that the failing ' +
    `code uses, or that the changes so far touched:\n\n${parts.join('\n\n')}`
  );
}

function fileReason(f: ShownFile): string {
  return f.detail === '' ? REASON_LABEL[f.reason] : f.detail;
}

function oneLine(text: string): string {
  return sanitizeText(text).replace(/\n/g, ' ');
}

function block(content: string, info = ''): string {
  return `${fenceFor(content)}${info}\n${content.replace(/\n$/, '')}\n${fenceFor(content)}`;
}
