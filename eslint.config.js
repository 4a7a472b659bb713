// typescript-eslint's type-checked recommendations over src/ (issue 21): `npx eslint`.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'bench/', 'test/', 'scripts/', 'bin/', '*.config.ts', 'eslint.config.js'] },
  {
    files: ['src/**/*.ts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      complexity: ['error', 20],
    },
  },
);
