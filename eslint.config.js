// ESLint: correctness rules only; layout belongs to Prettier (.prettierrc.json), so no stylistic
// rules here. TypeScript in src/ and test/ is linted with types (projectService, tsconfig.json) for
// the promise rules; the plain JS (bench/, scripts/, bin/) and the root config files without.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

// The JS files run on Node: its globals are this Node's own (no `globals` package needed).
const nodeGlobals = Object.fromEntries(Object.getOwnPropertyNames(globalThis).map((name) => [name, 'readonly']));

export default defineConfig(
  { ignores: ['node_modules/', 'build/', 'dist/', 'artifacts/', '.vitest-tmp/', 'fuzz/corpus/'] },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: nodeGlobals,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // Beyond the recommended sets: cheap, and each catches a real class of bug.
      eqeqeq: ['error', 'smart'],
      'array-callback-return': 'error',
      'no-constructor-return': 'error',
      'no-self-compare': 'error',
      'no-template-curly-in-string': 'error',
      'no-unreachable-loop': 'error',
      '@typescript-eslint/return-await': ['error', 'in-try-catch'],
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-import-type-side-effects': 'error',

      // Tuned to this code base.
      // `_name` marks a parameter an interface requires but this implementation ignores.
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      // `let { a, b } = f()` where only `a` is reassigned stays one statement.
      'prefer-const': ['error', { destructuring: 'all' }],
      // SSE, HTTP and ANSI parsing match control bytes on purpose.
      'no-control-regex': 'off',
      // Input validation formats `unknown` values into messages with String(v) deliberately.
      '@typescript-eslint/no-base-to-string': 'off',
      // An async function without await is how a sync implementation meets a Promise interface.
      '@typescript-eslint/require-await': 'off',
      // Arrays in messages (`got ${[...keys]}`) read fine; objects still are flagged.
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        { allowAny: true, allowArray: true, allowBoolean: true, allowNullish: true, allowNumber: true, allowRegExp: true },
      ],
    },
  },
  {
    // Tests poke at parsed JSON (`any`) and compare methods by identity.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    // Not in tsconfig.json's program (plain JS, and the root config files).
    files: ['**/*.js', '**/*.mjs', '**/*.cjs', '*.config.ts'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  {
    // CommonJS config files (.dependency-cruiser.cjs): the typescript-eslint parser does not add CommonJS globals itself.
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly', exports: 'writable' } },
  },
);
