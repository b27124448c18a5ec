// ESLint: typescript-eslint's type-aware rules where async code and untrusted input meet, and the
// layers of src/. Formatting is Prettier's; nothing here is about layout.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import hammer from './lint/eslint-plugin.js';

/**
 * The layers of src/, top to bottom: the one list (docs/development.md shows it, and a unit test
 * checks the two agree). A folder imports only folders on lower lines; folders on one line never
 * import each other; the files directly in src/ (errors, log, paths, frames) are below every line
 * and import no folder. Every folder of src/ is on exactly one line: a new folder fails lint until
 * it is placed here.
 */
export const LAYERS = [
  ['cli'],
  ['monitor'],
  ['chat', 'batch'],
  ['api'],
  ['loop', 'report'],
  ['context'],
  ['edits'],
  ['agent'],
  ['patch'],
  ['images', 'forge', 'tools'],
  ['git', 'runner', 'registry', 'sandbox'],
  ['verdict'],
  ['state'],
  ['llm'],
  ['config'],
  ['test-output', 'syntax'],
  ['text'],
];

export default tseslint.config(
  { ignores: ['dist/', '.bench/', 'node_modules/', 'test/fixtures/', 'examples/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { project: './tsconfig.eslint.json', tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      // an async function without await is how a throw becomes a rejection for a Promise-typed API
      '@typescript-eslint/require-await': 'off',
      // the sanitiser, path checks and runner contract match control characters on purpose
      'no-control-regex': 'off',
    },
  },
  {
    // src/batch/ sits above src/api/ (see LAYERS); of the front ends above it, only src/cli/ drives it.
    files: ['src/**/*.ts'],
    ignores: ['src/cli/**', 'src/batch/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../batch/*', '../../batch/*'],
              message: 'src/batch/ is above src/api/: only src/cli/ imports it.',
            },
          ],
        },
      ],
    },
  },
  {
    // A batch schedules runs through src/api/ and reads their states: it never reaches into the loop,
    // the sandbox or the model (their types are fine).
    files: ['src/batch/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../loop/*', '../sandbox/*', '../llm/*', '../runner/*', '../agent/*', '../cli/*'],
              allowTypeImports: true,
              message:
                'src/batch/ runs tasks through src/api/run: it never reaches into the loop, the sandbox or the model.',
            },
          ],
        },
      ],
    },
  },
  {
    // the order above, and no circle of imports (inside a folder or across folders)
    files: ['src/**/*.ts'],
    plugins: { hammer },
    rules: {
      'hammer/layers': ['error', { root: 'src', layers: LAYERS }],
      'hammer/import-cycles': ['error', { root: 'src' }],
    },
  },
  {
    // src/verdict/ is pure: it decides from a run's state and asks no model
    files: ['src/verdict/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../llm/*'],
              message: 'src/verdict/ is pure and below everything that reports an outcome: it asks no model.',
            },
          ],
        },
      ],
    },
  },
  {
    // agent mode's pure parts: deciding only (parsing a turn, the editor on content, observations,
    // the stuck verdict, history elision); the trajectory loop in src/loop/agent/ does the I/O.
    files: ['src/agent/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '../loop/*',
                '../api/*',
                '../cli/*',
                '../batch/*',
                '../sandbox/*',
                '../git/*',
                '../images/*',
                '../state/*',
                '../runner/*',
              ],
              message: 'src/agent/ is pure and sits below src/loop/: it does no I/O and imports nothing that does.',
            },
            {
              group: ['node:fs', 'node:fs/*', 'node:child_process', 'node:net', 'dockerode', 'undici'],
              message: 'src/agent/ is pure: the loop passes contents in and writes results out.',
            },
          ],
        },
      ],
    },
  },
  {
    // tests read JSON they just wrote and hand async callbacks to vitest: the `any` of a parsed
    // fixture is checked by the assertion that follows, and an async callback without await is
    // the API's shape. Promises are still checked.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
  {
    // the monitor's live script runs in the browser
    files: ['monitor/**/*.js'],
    languageOptions: {
      globals: {
        document: 'readonly',
        fetch: 'readonly',
        EventSource: 'readonly',
        DOMParser: 'readonly',
      },
    },
  },
);
