import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { removeTempDirs } from './cli.js';

// Machine state outside git goes to the per-user cache folder: the tests' own, never the user's ~/.cache.
process.env.XDG_CACHE_HOME ??= mkdtempSync(join(tmpdir(), 'memctx-test-cache-'));

// Every node a test starts (the bin, a hook, a merge driver) would read this certificate file first,
// about as long as starting node itself takes; no test reaches the network.
delete process.env.NODE_EXTRA_CA_CERTS;

// No test file leaves temporary directories behind.
afterAll(removeTempDirs);
