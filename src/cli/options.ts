import { MemctxError } from '../store/errors.js';
import { DEFAULT_ENCODING, ENCODINGS, isEncodingName, type EncodingName } from '../tokens/encodings.js';
import { TRANSCRIPT_FORMATS, isTranscriptFormat, type TranscriptFormat } from '../transcript/types.js';

/** `--encoding NAME`, the default when not given; a usage error listing the valid ones otherwise. */
export function parseEncoding(value: string | undefined): EncodingName {
  if (value === undefined) return DEFAULT_ENCODING;
  if (!isEncodingName(value)) throw new MemctxError(`--encoding must be ${ENCODINGS.join(' or ')}, got "${value}"`);
  return value;
}

/** `--format NAME` for a transcript reader, or undefined to detect it from the content. */
export function parseTranscriptFormat(value: string | undefined): TranscriptFormat | undefined {
  if (value === undefined) return undefined;
  if (!isTranscriptFormat(value)) throw new MemctxError(`--format must be one of ${TRANSCRIPT_FORMATS.join(', ')}, got "${value}"`);
  return value;
}
