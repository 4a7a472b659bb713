// Part of `npm run build`: bundles the published CLI with esbuild into dist/cli/ (the library API stays
// as tsc builds it, in dist/src/). bin/memctx.js asks route.cjs (cli/fast/launch.ts) which entry a
// command line takes:
//   main.js          every command, through commander: one ESM bundle with code splitting, so each
//                    command loads only its own chunks;
//   statusline.cjs   `status --statusline`, run after every message: one CommonJS file (no ES module
//                    loader), stdin read synchronously;
//   mcp.cjs, flush-hook.cjs, checkpoint.cjs, index-staged.cjs   `mcp`, `flush --hook`, `checkpoint`
//                    and `index --staged`: each one CommonJS file, which route.cjs loads (with Node's
//                    compile cache where Node has one, in a private per-user folder);
//   pack.js          `pack` and `search` (route.cjs's mainEntry): main() again, minified, with what those
//                    two commands load in few files;
//   yaml.cjs         the `yaml` package, one file, loaded only when frontmatter needs it;
//   secretlint.cjs   secretlint for the hot paths, one file, loaded only for text with a secret's shape;
//   count-worker.cjs the tokenizer's worker thread: one CommonJS file.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'dist/cli');

/** cache/stat-cache.ts's fingerprint of the code that shapes cached entries, as it computes it from dist/src/ when not bundled. */
function codeHash() {
  const hash = createHash('sha1');
  for (const rel of ['kernel/store', 'kernel/state', 'kernel/text', 'kernel/lint', ...['content', 'files', 'frontmatter', 'index', 'security', 'session'].map((category) => `kernel/lint/rules/${category}`)]) {
    const dir = join(root, 'dist/src', rel);
    for (const name of readdirSync(dir).sort()) if (/\.[jt]s$/.test(name) && !name.endsWith('.d.ts')) hash.update(readFileSync(join(dir, name)));
  }
  return hash.digest('hex').slice(0, 12);
}

/** `yaml` imports go to the one bundled file beside the entry instead of into each bundle. */
const yamlOutside = {
  name: 'yaml-outside',
  setup(b) {
    b.onResolve({ filter: /^yaml$/ }, () => ({ path: './yaml.cjs', external: true }));
  },
};

/**
 * zod re-exports its error messages in 50 languages (`z.locales`) and so every bundle that uses zod would
 * hold them all; memctx and the MCP SDK use only the default, English (which zod loads directly).
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, () => ({ contents: 'export { default as en } from "./en.js";', loader: 'js' }));
  },
};

/**
 * proper-lockfile requires graceful-fs (about 5 ms to load: it clones and patches fs) only as the default
 * for its `fs` option, which store/write.ts always gives; the bundles take Node's fs in its place.
 */
const noGracefulFs = {
  name: 'no-graceful-fs',
  setup(b) {
    b.onResolve({ filter: /^graceful-fs$/ }, () => ({ path: 'graceful-fs', namespace: 'node-fs' }));
    b.onLoad({ filter: /.*/, namespace: 'node-fs' }, () => ({ contents: 'module.exports = require("node:fs");', loader: 'js' }));
  },
};

/**
 * signal-exit (proper-lockfile's) requires Node's `assert` (about 2 ms to load) for one check, that its
 * handler is a function; the bundles give it that one check.
 */
const signalExitAssert = {
  name: 'signal-exit-assert',
  setup(b) {
    b.onResolve({ filter: /^assert$/ }, (args) => (/[\\/]signal-exit[\\/]/.test(args.importer) ? { path: 'assert', namespace: 'signal-exit-assert' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'signal-exit-assert' }, () => ({
      contents: 'exports.equal = (actual, expected, message) => { if (actual != expected) throw new Error(message); };',
      loader: 'js',
    }));
  },
};

/**
 * memctx gives every Chalk its colour level (cli/context.ts colorLevel); chalk's own detection, which
 * only its default instance uses, reads the terminals through node:tty as it loads. The hot paths skip it.
 */
const noColorDetection = {
  name: 'no-color-detection',
  setup(b) {
    b.onLoad({ filter: /[\\/]chalk[\\/]source[\\/]vendor[\\/]supports-color[\\/]index\.js$/ }, () => ({
      contents: 'export function createSupportsColor() { return false; } export default { stdout: false, stderr: false };',
      loader: 'js',
    }));
  },
};

/**
 * Node's crypto (2.5 ms to load) and child_process (2.3 ms, with net and streams) are required where
 * esbuild puts every import, at the top of the file, though many runs of a hot path call neither. In
 * memctx's own modules (which call only their functions) the hot paths get each as a module of
 * functions that require it on first call.
 */
const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(b) {
    const src = join(root, 'src');
    b.onResolve({ filter: /^node:(crypto|child_process)$/ }, (args) => (args.importer.startsWith(src) ? { path: args.path, namespace: 'lazy-builtin' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, async (args) => {
      const names = Object.entries(await import(args.path)).filter(([name, value]) => typeof value === 'function' && /^[a-z]/.test(name)).map(([name]) => name);
      return {
        contents: [`let loaded; const load = () => (loaded ??= require('${args.path}'));`, ...names.map((name) => `export const ${name} = (...args) => load().${name}(...args);`)].join('\n'),
        loader: 'js',
      };
    });
  },
};

/**
 * secretlint (about 80 KB, loaded only for text with a secret's shape) is one file beside the hot paths'
 * entries, as `yaml` is, so that an entry compiled without its code cache does not parse it.
 */
const SECRETLINT = { '@secretlint/core': 'core', '@secretlint/secretlint-rule-preset-recommend': 'preset', '@secretlint/secretlint-rule-pattern': 'pattern' };
const secretlintOutside = {
  name: 'secretlint-outside',
  setup(b) {
    b.onResolve({ filter: /^@secretlint\/(core|secretlint-rule-preset-recommend|secretlint-rule-pattern)$/ }, (args) => ({ path: args.path, namespace: 'secretlint-outside' }));
    b.onResolve({ filter: /^\.\/secretlint\.cjs$/ }, () => ({ path: './secretlint.cjs', external: true }));
    b.onLoad({ filter: /.*/, namespace: 'secretlint-outside' }, (args) => ({ contents: `module.exports = require('./secretlint.cjs').${SECRETLINT[args.path]};`, loader: 'js' }));
  },
};

/** tools/list's answer, computed once from the tools' schemas (as tsc built them) so the bundled server never loads the converter. */
const { computeToolsList } = await import(pathToFileURL(join(root, 'dist/src/mcp/server.js')).href);
const toolsList = await computeToolsList();

/**
 * The MCP SDK's `Server` builds an ajv validator (ajv and ajv-formats, about 10 ms of start-up) for one
 * use: checking what a client answers to `elicitation/create`, which memctx never sends.
 */
const noElicitationValidator = {
  name: 'no-elicitation-validator',
  setup(b) {
    b.onLoad({ filter: /[\\/]@modelcontextprotocol[\\/]sdk[\\/]dist[\\/]esm[\\/]validation[\\/]ajv-provider\.js$/ }, () => ({
      contents: 'export class AjvJsonSchemaValidator { getValidator() { throw new Error("memctx mcp validates no elicitation answers"); } }',
      loader: 'js',
    }));
  },
};

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  absWorkingDir: root,
  outdir: out,
  define: { __MEMCTX_CODE_HASH__: JSON.stringify(codeHash()), __MEMCTX_YAML__: JSON.stringify('./yaml.cjs'), __MEMCTX_TOOLS_LIST__: JSON.stringify(toolsList) },
  plugins: [yamlOutside, zodEnglishOnly, noElicitationValidator, noGracefulFs, signalExitAssert],
  legalComments: 'none',
  logLevel: 'warning',
  metafile: true,
  // js-tiktoken's rank modules are required at run time through createRequire, from node_modules.
};

const esm = {
  ...common,
  format: 'esm',
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
};

/** One file's build, run as a plain script (no ES module loader). */
const script = (name, entry) => ({ ...common, entryPoints: { [name]: entry }, format: 'cjs', outExtension: { '.js': '.cjs' }, minify: true });

/** In a CommonJS file, code that finds files from import.meta.url gets the file's URL. */
const cjsImportMetaUrl = {
  define: { ...common.define, 'import.meta.url': '__memctxImportMetaUrl' },
  banner: { js: "var __memctxImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
};

/**
 * A hot path's entry built on its own into one minified CommonJS file (no ES module loader; bin/memctx.js
 * loads it through route.cjs with V8's code cache). What it imports lazily (the tokenizer, the MCP tools,
 * proper-lockfile) is in the same file, in functions that run only when imported: compiled only then,
 * and with the code cache not even parsed; yaml and secretlint are files of their own.
 */
const hotPath = (name) => ({
  ...script(name, `src/fast/${name}.ts`),
  minify: !process.env.NOMIN,
  plugins: [...common.plugins, noColorDetection, lazyBuiltins, secretlintOutside],
  // the JSON Schema converter runs only outside the bundle (the bundle has tools/list built in)
  external: ['@valibot/to-json-schema'],
  supported: { 'dynamic-import': false },
  ...cjsImportMetaUrl,
});

const HOT_PATHS = ['mcp', 'flush-hook', 'checkpoint', 'index-staged'];

rmSync(out, { recursive: true, force: true });
const results = await Promise.all([
  build({
    ...esm,
    entryPoints: {
      main: 'src/main.ts',
    },
    splitting: true,
    minify: process.env.MEMCTX_MINIFY === '1',
    // Chunks beside the entries: code that finds files relative to its own module (package.json, bin/, the rank tables) finds them from any of them.
    chunkNames: '[name]-[hash]',
  }),
  ...HOT_PATHS.map((name) => build(hotPath(name))),
  build({
    ...script('statusline', 'src/fast/statusline-main.ts'),
    // The tokenizer's modules, which find their files from import.meta.url, are not in this bundle (test/cli/startup.test.ts).
    logOverride: { 'empty-import-meta': 'silent' },
  }),
  build({ ...esm, entryPoints: { pack: 'src/fast/pack.ts' }, splitting: true, minify: !process.env.NOMIN, chunkNames: 'pack-[name]-[hash]' }),
  // The worker thread starts with no ES module loader (about 8 ms less CPU per cold pack than as an ES module with chunks).
  build({ ...script('count-worker', 'src/kernel/tokens/count-worker.ts'), ...cjsImportMetaUrl }),
  build({ ...script('yaml', 'yaml'), plugins: [] }),
  build({
    ...script('secretlint', 'secretlint'),
    entryPoints: undefined,
    stdin: { contents: Object.entries(SECRETLINT).map(([pkg, key]) => `export * as ${key} from '${pkg}';`).join('\n'), resolveDir: root, sourcefile: 'secretlint.js' },
    outfile: join(out, 'secretlint.cjs'),
    outdir: undefined,
    ...cjsImportMetaUrl,
  }),
]);
// The launcher: routes a command line, and turns on Node's compile cache where Node has one.
results.push(await build(script('route', 'src/fast/launch.ts')));

// Which source modules each output file holds, for the start-up tests (not published).
const outputs = {};
for (const result of results) {
  for (const [file, output] of Object.entries(result.metafile.outputs)) {
    outputs[file] = { imports: output.imports.filter((i) => i.kind !== 'require-call').map((i) => i.path), inputs: Object.keys(output.inputs) };
  }
}
writeFileSync(join(root, 'dist/cli-meta.json'), `${JSON.stringify(outputs, null, 1)}\n`);
