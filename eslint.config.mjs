import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * The files that talk to VS Code: the view layer (registering, views, commands, pickers, editors). Every other file of
 * src/ is a model, a rule or the client, and may not import `vscode`, so that it runs, and is unit-tested, on plain
 * Node. A new file is a model unless it is added here (ARCHITECTURE.md says which side a file belongs to).
 */
const VSCODE_FILES = [
  'src/extension.ts',
  'src/main.ts',
  'src/services.ts',
  'src/{auth,copy,files,jobs,tasks}/register.ts',
  'src/apps/commands.ts',
  'src/apps/appDocuments.ts',
  'src/apps/appPick.ts',
  'src/{auth,files,jobs,tasks}/commands.ts',
  'src/auth/accountStatus.ts',
  'src/auth/provider.ts',
  'src/auth/session.ts',
  'src/copy/flow.ts',
  'src/copy/pickers.ts',
  'src/copy/sources.ts',
  'src/files/dragAndDrop.ts',
  'src/files/targets.ts',
  'src/jobs/results.ts',
  'src/files/findPrompt.ts',
  'src/files/manageCommands.ts',
  'src/files/moveCommand.ts',
  'src/files/metadataDocument.ts',
  'src/jobs/ui.ts',
  'src/remote/download.ts',
  'src/remote/upload.ts',
  'src/remote/fileSystem.ts',
  'src/remote/fileSystemWrites.ts',
  'src/remote/changedWhileOpen.ts',
  'src/remote/open.ts',
  'src/remote/register.ts',
  'src/tasks/batchCommands.ts',
  'src/tasks/copyOutputs.ts',
  'src/tasks/details.ts',
  'src/tasks/executionCommands.ts',
  'src/tasks/filterPicks.ts',
  'src/tasks/logs.ts',
  'src/tasks/targets.ts',
  'src/tasks/taskDocumentCommands.ts',
  'src/tasks/sheetCommands.ts',
  'src/tasks/taskDocumentLanguage.ts',
  'src/tasks/timelinePanel.ts',
  'src/volumes/{commands,register}.ts',
  'src/ui/commands.ts',
  'src/ui/errors.ts',
  'src/ui/projectPick.ts',
  'src/ui/requestLog.ts',
  'src/ui/rowTree.ts',
  'src/ui/settings.ts',
  'src/ui/whenContext.ts',
];

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', '.vscode-test/**', 'test-artifacts/**'] },
  eslint.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // Type-aware rules: a promise nobody awaits or catches, or one handed where VS Code expects a plain function, is
    // an error (`void` says it is meant); a name used only as a type is imported as one, so that a bundle never
    // loads a module for a type (test/build/bundle.test.ts: what main.js holds is not bundled twice).
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-import-type-side-effects': 'error',
    },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  {
    // Models, rules and the client: no `vscode`.
    files: ['src/**/*.ts'],
    ignores: VSCODE_FILES,
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'A model has no `vscode` import: put what talks to VS Code in a view-layer file (eslint.config.mjs lists them).' }] }],
    },
  },
  {
    // One clock: time is read and timers are set through src/api/clock.ts's Clock (services.clock), never directly.
    files: ['src/**/*.ts'],
    ignores: ['src/api/clock.ts', 'src/extension.ts'],
    rules: {
      'no-restricted-properties': ['error', { object: 'Date', property: 'now', message: 'Read the time through the Clock (src/api/clock.ts).' }],
      'no-restricted-globals': [
        'error',
        ...['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'].map((name) => ({ name, message: 'Set timers through the Clock (src/api/clock.ts), or run on the Poller (src/util/poller.ts).' })),
      ],
    },
  },
  {
    // Activation loads nothing but extension.ts and lazyStart.ts (test/build/bundle.test.ts), so the Clock is not
    // at hand there: it stamps the activation time itself, and reads no other time.
    files: ['src/extension.ts'],
    rules: { 'no-restricted-globals': ['error', 'setTimeout', 'setInterval'] },
  },
  {
    files: ['test/**', 'scripts/**'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['scripts/**/*.mjs', 'scripts/**/*.js', 'scripts/**/*.cjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', module: 'writable' } },
  },
  {
    // CommonJS scripts: scripts/bundles.cjs, which the build, the build test and the bench (CommonJS) all require.
    files: ['scripts/**/*.cjs'],
    languageOptions: { globals: { require: 'readonly', __dirname: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
