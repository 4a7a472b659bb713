// Part of `npm run build`: bundles the published CLI with esbuild into dist/cli/ (the library API stays
// as tsc builds it, in dist/src/). One ESM bundle with code splitting, entered through main.js, with a
// small entry per hot path so the commands run on every message or commit load little: mcp.js,
// flush-hook.js, index-staged.js; the status line is one self-contained CommonJS file that bin/memctx.js
// requires without starting the ES module loader; count-worker.js is the tokenizer's worker thread.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'dist/cli');

/** cache/stat-cache.ts's fingerprint of the code that shapes cached entries, as it computes it from dist/src/ when not bundled. */
function codeHash() {
  const hash = createHash('sha1');
  for (const rel of ['store', 'cache', 'text']) {
    const dir = join(root, 'dist/src', rel);
    for (const name of readdirSync(dir).sort()) if (/\.[jt]s$/.test(name) && !name.endsWith('.d.ts')) hash.update(readFileSync(join(dir, name)));
  }
  return hash.digest('hex').slice(0, 12);
}

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  absWorkingDir: root,
  define: { __MEMCTX_CODE_HASH__: JSON.stringify(codeHash()) },
  legalComments: 'none',
  logLevel: 'warning',
  metafile: true,
  // `yaml` and js-tiktoken's rank modules are required at run time through createRequire, from node_modules.
};

rmSync(out, { recursive: true, force: true });
const split = await build({
  ...common,
  entryPoints: {
    main: 'src/cli/main.ts',
    mcp: 'src/cli/fast/mcp.ts',
    'flush-hook': 'src/cli/fast/flush-hook.ts',
    'index-staged': 'src/cli/fast/index-staged.ts',
    'count-worker': 'src/tokens/count-worker.ts',
  },
  outdir: out,
  format: 'esm',
  splitting: true,
  // Chunks beside the entries: code that finds files relative to its own module (package.json, bin/, the rank tables) finds them from any of them.
  chunkNames: '[name]-[hash]',
  // CommonJS dependencies bundled into ES modules call require() for Node's own modules, and some read __filename.
  banner: {
    js: [
      "import { createRequire as __memctxCreateRequire } from 'node:module';",
      "import { fileURLToPath as __memctxFileURLToPath } from 'node:url';",
      "import { dirname as __memctxDirname } from 'node:path';",
      'const require = __memctxCreateRequire(import.meta.url);',
      'const __filename = __memctxFileURLToPath(import.meta.url);',
      'const __dirname = __memctxDirname(__filename);',
    ].join(' '),
  },
});
const statusline = await build({
  ...common,
  entryPoints: { statusline: 'src/cli/fast/statusline-main.ts' },
  outdir: out,
  outExtension: { '.js': '.cjs' },
  // Less to parse on every message.
  minify: true,
  // The tokenizer's modules, which find their files from import.meta.url, are not in this bundle (test/cli/startup.test.ts).
  logOverride: { 'empty-import-meta': 'silent' },
  format: 'cjs',
});

// Which source modules each output file holds, for the start-up tests (not published).
const outputs = {};
for (const [file, output] of Object.entries({ ...split.metafile.outputs, ...statusline.metafile.outputs })) {
  outputs[file] = { imports: output.imports.filter((i) => i.kind !== 'require-call').map((i) => i.path), inputs: Object.keys(output.inputs) };
}
writeFileSync(join(root, 'dist/cli-meta.json'), `${JSON.stringify(outputs, null, 1)}\n`);
