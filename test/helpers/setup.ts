import { afterAll } from 'vitest';
import { removeTempDirs } from './cli.js';

// No test file leaves temporary directories behind.
afterAll(removeTempDirs);
