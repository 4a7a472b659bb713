// The team recipes (test/e2e/recipes/team.ts) with memctx linked as a devDependency, as `npm install
// file:` links it: this checkout's build in node_modules/memctx, its bin in node_modules/.bin. The
// walkthrough (walkthrough.e2e.ts) runs the same steps against the installed tarball.
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, tempDir } from '../../helpers/cli.js';
import { runTeamRecipes } from './team.js';

describe('the team recipes, memctx linked as a devDependency', () => {
  it('all 11 steps pass with nothing on stderr', () => {
    const base = tempDir();
    const modules = join(base, 'project', 'node_modules');
    mkdirSync(join(modules, '.bin'), { recursive: true });
    symlinkSync(REPO, join(modules, 'memctx'));
    symlinkSync('../memctx/bin/memctx.js', join(modules, '.bin', 'memctx'));
    expect(runTeamRecipes(base, modules)).toEqual({ steps: 11, failures: [] });
  }, 30_000);
});
