import type { LintRule } from '../types.js';
import parseError from './parse-error.js';
import jsEngine from './js-engine.js';
import required from './required.js';
import invalidType from './invalid-type.js';
import invalidKind from './invalid-kind.js';
import invalidDate from './invalid-date.js';
import importanceRange from './importance-range.js';
import missingUpdated from './missing-updated.js';
import supersedes from './supersedes.js';
import indexStale from './index-stale.js';
import indexTooLong from './index-too-long.js';
import indexDanglingLink from './index-dangling-link.js';
import indexUnlisted from './index-unlisted.js';
import tooLarge from './too-large.js';
import duplicate from './duplicate.js';
import stale from './stale.js';
import ephemeral from './ephemeral.js';
import brokenReference from './broken-reference.js';
import drifted from './drifted.js';
import sessionMissingField from './session-missing-field.js';
import sessionOverBudget from './session-over-budget.js';
import secret from './secret.js';
import fileName from './file-name.js';
import conflictMarker from './conflict-marker.js';

/** Every rule, in the order they are documented; ids are stable. */
export const RULES: LintRule[] = [
  parseError,
  jsEngine,
  required,
  invalidType,
  invalidKind,
  invalidDate,
  importanceRange,
  missingUpdated,
  supersedes,
  indexStale,
  indexTooLong,
  indexDanglingLink,
  indexUnlisted,
  tooLarge,
  duplicate,
  stale,
  ephemeral,
  brokenReference,
  drifted,
  sessionMissingField,
  sessionOverBudget,
  secret,
  fileName,
  conflictMarker,
];
