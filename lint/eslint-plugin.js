// hammer-box's own lint rules: the layers of src/ (each folder imports only the folders below it, in
// the one list eslint.config.js gives) and no circle of imports among the files of src/.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** The folder of src/ a file is in ('' for a file directly in src/), or null outside src/. */
function folderOf(root, file) {
  const rel = relative(root, file);
  if (rel === '' || rel.startsWith('..') || resolve(root, rel) !== file) return null;
  const parts = rel.split(sep);
  return parts.length === 1 ? '' : parts[0];
}

/**
 * Listeners that collect the source literal of every import, export-from, import() and
 * `import('…')` type, and call `done` with them when the file has been walked.
 */
function onImports(done) {
  const sources = [];
  const literal = (node) => {
    if (node?.type === 'Literal' && typeof node.value === 'string') sources.push(node);
  };
  return {
    ImportDeclaration: (node) => literal(node.source),
    ExportNamedDeclaration: (node) => literal(node.source),
    ExportAllDeclaration: (node) => literal(node.source),
    ImportExpression: (node) => literal(node.source),
    TSImportType: (node) => literal(node.source ?? node.argument?.literal),
    'Program:exit': (program) => done(program, sources),
  };
}

/** The file a relative specifier names (`./x.js` is `./x.ts` in the source), or null. */
function resolveSpecifier(fromFile, spec) {
  if (!spec.startsWith('./') && !spec.startsWith('../')) return null;
  const base = resolve(dirname(fromFile), spec);
  const candidates = /\.[cm]?js$/.test(base)
    ? [base.replace(/\.([cm]?)js$/, '.$1ts'), base.replace(/\.js$/, '.tsx'), base]
    : [base, `${base}.ts`, join(base, 'index.ts')];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile()) ?? candidates[0];
}

const LAYERS_DOC = 'the layer list in eslint.config.js (docs/development.md shows it)';

/** hammer/layers: an import may only run down the layer list; folders of one layer never import each other. */
const layers = {
  meta: {
    type: 'problem',
    docs: { description: 'Each folder of src/ imports only folders in lower layers of the one layer list.' },
    schema: [
      {
        type: 'object',
        properties: {
          root: { type: 'string' },
          layers: { type: 'array', items: { type: 'array', items: { type: 'string' } } },
        },
        required: ['root', 'layers'],
        additionalProperties: false,
      },
    ],
    messages: {
      up: 'src/{{from}}/ imports src/{{to}}/, which is above it in {{doc}}: an import runs only down the list (hammer/layers).',
      across:
        'src/{{from}}/ imports src/{{to}}/, and they share a layer in {{doc}}: folders of one layer never import each other (hammer/layers).',
      unlisted: 'src/{{folder}}/ is in no layer of {{doc}}: add it where it belongs (hammer/layers).',
      base: 'The files directly in src/ are below every layer of {{doc}}: this one imports src/{{to}}/ (hammer/layers).',
    },
  },
  create(context) {
    const { root: rootOption, layers: list } = context.options[0];
    const root = resolve(context.cwd, rootOption);
    const file = resolve(context.cwd, context.filename);
    const from = folderOf(root, file);
    if (from === null) return {};
    const rank = new Map();
    list.forEach((layer, i) => layer.forEach((folder) => rank.set(folder, i)));
    return onImports((program, sources) => {
      if (from !== '' && !rank.has(from)) {
        context.report({ node: program, messageId: 'unlisted', data: { folder: from, doc: LAYERS_DOC } });
        return;
      }
      for (const source of sources) {
        const target = resolveSpecifier(file, source.value);
        if (target === null) continue;
        const to = folderOf(root, target);
        if (to === null || to === '' || to === from) continue;
        if (from === '') {
          context.report({ node: source, messageId: 'base', data: { to, doc: LAYERS_DOC } });
        } else if (!rank.has(to)) {
          context.report({ node: source, messageId: 'unlisted', data: { folder: to, doc: LAYERS_DOC } });
        } else if (rank.get(to) < rank.get(from)) {
          context.report({ node: source, messageId: 'up', data: { from, to, doc: LAYERS_DOC } });
        } else if (rank.get(to) === rank.get(from)) {
          context.report({ node: source, messageId: 'across', data: { from, to, doc: LAYERS_DOC } });
        }
      }
    });
  },
};

/** Imports of each file as read from disk (by path and modification time), for the circle search. */
const diskImports = new Map();

function importsOnDisk(root, file) {
  let mtime;
  try {
    mtime = statSync(file).mtimeMs;
  } catch {
    return [];
  }
  const cached = diskImports.get(file);
  if (cached && cached.mtime === mtime) return cached.targets;
  const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  const targets = info.importedFiles
    .map((f) => resolveSpecifier(file, f.fileName))
    .filter((t) => t !== null && folderOf(root, t) !== null && existsSync(t));
  diskImports.set(file, { mtime, targets });
  return targets;
}

/**
 * A path of imports from `start` back to `file` (the files after `file`, ending with `file`), or null.
 * `seen` holds the files a search from `file` already reached without finding it (shared by the
 * searches from one file's imports).
 */
function pathBack(root, start, file, seen) {
  const parent = new Map([[start, null]]);
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const at = queue[i];
    if (at === file) {
      const path = [];
      for (let f = at; f !== null; f = parent.get(f)) path.unshift(f);
      return path;
    }
    if (seen.has(at)) continue;
    seen.add(at);
    for (const next of importsOnDisk(root, at))
      if (!parent.has(next)) {
        parent.set(next, at);
        queue.push(next);
      }
  }
  return null;
}

/** hammer/import-cycles: no file of src/ reaches itself through its imports (type-only imports count). */
const importCycles = {
  meta: {
    type: 'problem',
    docs: { description: 'No circle of imports among the files of src/, inside a folder or across folders.' },
    schema: [
      {
        type: 'object',
        properties: { root: { type: 'string' } },
        required: ['root'],
        additionalProperties: false,
      },
    ],
    messages: {
      circle:
        'This import closes a circle: {{circle}}. Pass the dependency in, or move what both use into its own file (hammer/import-cycles).',
    },
  },
  create(context) {
    const root = resolve(context.cwd, context.options[0].root);
    const file = resolve(context.cwd, context.filename);
    if (folderOf(root, file) === null) return {};
    return onImports((_program, sources) => {
      const reported = new Set();
      const seen = new Set();
      for (const source of sources) {
        const target = resolveSpecifier(file, source.value);
        if (target === null || folderOf(root, target) === null || reported.has(target)) continue;
        const back = pathBack(root, target, file, seen);
        if (back === null) continue;
        reported.add(target);
        const circle = [file, ...back].map((f) => relative(root, f).split(sep).join('/')).join(' → ');
        context.report({ node: source, messageId: 'circle', data: { circle } });
      }
    });
  },
};

export default {
  meta: { name: 'hammer-box' },
  rules: { layers, 'import-cycles': importCycles },
};
