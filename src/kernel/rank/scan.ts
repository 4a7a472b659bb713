/** The pack cache as pack and search read it (its own module, so a search loads nothing else of pack). */
import { scanForPack, type PackScan, type PackScanOptions } from './cache.js';
import { contentHash } from '../tokens/hash.js';
import { hasMarkers } from './markers.js';
import { tokenBounds } from './file-tokens.js';

/**
 * Every memory file for pack and search, from pack-cache.bin (the state folder) where its stat is unchanged
 * (bodies read on first use); `textOf` gives each file's text as packed. `onRead` sees each text read.
 */
export async function scanCached(root: string, now: Date, onRead?: (text: string, hash: string) => void, stream?: PackScanOptions['stream']): Promise<PackScan> {
  return scanForPack(root, {
    now: now.getTime(),
    stream,
    describe: (file, text, bounds) => {
      const hash = contentHash(text);
      onRead?.(text, hash);
      return { hash, markers: hasMarkers(file.body), bounds: bounds ?? tokenBounds(text) };
    },
  });
}
