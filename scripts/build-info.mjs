// Part of `npm run build`, after tsc: what the built CLI would otherwise compute on every run.
//   dist/src/kernel/build-info.json   the hash of the code that shapes cached entries (kernel/state/stat-cache.ts)
//   dist/src/mcp/tools-list.json      tools/list's answer, from the tools' schemas (mcp/server.ts)
import { writeFileSync } from 'node:fs';

const dist = new URL('../dist/src/', import.meta.url);
const { codeHash } = await import(new URL('kernel/state/stat-cache.js', dist).href);
const { computeToolsList } = await import(new URL('mcp/server.js', dist).href);
writeFileSync(new URL('kernel/build-info.json', dist), `${JSON.stringify({ codeHash: codeHash(new URL('kernel/', dist).pathname) })}\n`);
writeFileSync(new URL('mcp/tools-list.json', dist), `${JSON.stringify(await computeToolsList())}\n`);
