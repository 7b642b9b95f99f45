import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CalibrationTable } from './calibration-table.js';
import { MatchLevelTable } from './match-level-table.js';

/**
 * Loads libs/face/calibration/<engine>.json. Looks next to this module's package folder first,
 * then walks up the directory tree, so it works from sources (tsx, jest) and from a dist/
 * build that did not copy the JSON. Pass `file` to use a table kept elsewhere.
 */
export function loadMatchLevelTable(engine: string, file?: string): MatchLevelTable {
  const location = file ?? findCalibrationFile(engine);
  const table = JSON.parse(readFileSync(location, 'utf8')) as CalibrationTable;
  if (table.engine !== engine) {
    throw new RangeError(`calibration file ${location} is for engine ${table.engine}, not ${engine}`);
  }
  return new MatchLevelTable(table);
}

export function calibrationFilePath(engine: string, directory = defaultCalibrationDirectory()): string {
  if (!/^[a-z0-9][a-z0-9._-]*$/i.test(engine)) throw new RangeError(`invalid engine name ${engine}`);
  return path.join(directory, `${engine}.json`);
}

/** libs/face/calibration in the source tree. */
export function defaultCalibrationDirectory(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../calibration');
}

function findCalibrationFile(engine: string): string {
  const candidates = [calibrationFilePath(engine)];
  let directory = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    candidates.push(calibrationFilePath(engine, path.join(directory, 'libs', 'face', 'calibration')));
    const parent = path.dirname(directory);
    if (parent === directory) break;
    directory = parent;
  }
  const found = candidates.find((candidate) => existsSync(candidate));
  if (!found) throw new Error(`no calibration table for face engine ${engine}; run npm run calibrate:faces`);
  return found;
}
