// typescript-eslint's type-checked recommendations over src/ (issue 21), its plain recommendations over
// test/ and bench/ (type-checked by tsconfig.test.json), run by `npm test` (`eslint`).
import tseslint from 'typescript-eslint';

const unusedVars = ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }];

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'bench/out/', 'scripts/', 'bin/', 'fixtures/', '*.config.ts', 'eslint.config.js'] },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    extends: [tseslint.configs.recommended],
    rules: {
      '@typescript-eslint/no-unused-vars': unusedVars,
      // Tests and benches read JSON from the real agents, their stand-ins and the tools they compare against.
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    files: ['src/**/*.ts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // A function above 20 carries `// eslint-disable-next-line complexity -- why`.
      complexity: ['error', 20],
      // `const { drop: _drop, ...rest } = x` is how the code leaves a key out of an object.
      '@typescript-eslint/no-unused-vars': unusedVars,
      // Deliberate: an async function without await keeps a Promise-returning interface (deps, MCP handlers) and turns throws into rejections.
      '@typescript-eslint/require-await': 'off',
      // It flags node:path's `join`/`resolve` destructured from a lazy import and the function-valued deps objects; no code in src/ uses `this` in them.
      '@typescript-eslint/unbound-method': 'off',
    },
  },
);
