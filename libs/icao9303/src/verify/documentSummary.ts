/** Best-effort content summary of the presented data groups (parse errors are reported, never thrown). */
import { Icao9303Error } from '../errors.js';
import { parseDg1 } from '../lds/dg1.js';
import { parseDg2 } from '../lds/dg2.js';
import { parseDg11, type Dg11 } from '../lds/dg11.js';
import { parseDg12, type Dg12 } from '../lds/dg12.js';
import type { Mrz } from '../mrz/mrz.js';
import type { ImageType } from '../lds/biometric/image.js';

export interface FaceSummary {
  imageType: ImageType;
  width?: number;
  height?: number;
  format: string;
  image: Uint8Array;
}

export interface DocumentSummary {
  mrz?: Mrz;
  faces?: FaceSummary[];
  additionalPersonalDetails?: Dg11;
  additionalDocumentDetails?: Dg12;
  parseErrors: Array<{ dataGroup: number; code: string; message: string }>;
}

export function summarizeDocument(dataGroups: ReadonlyMap<number, Uint8Array>): DocumentSummary {
  const out: DocumentSummary = { parseErrors: [] };
  const attempt = (dg: number, fn: (b: Uint8Array) => void) => {
    const bytes = dataGroups.get(dg);
    if (!bytes) return;
    try {
      fn(bytes);
    } catch (e) {
      if (!(e instanceof Icao9303Error)) throw e;
      out.parseErrors.push({ dataGroup: dg, code: e.code, message: e.message });
    }
  };
  attempt(1, (b) => (out.mrz = parseDg1(b).mrz));
  attempt(
    2,
    (b) => (out.faces = parseDg2(b).faces.map((f) => ({ imageType: f.imageType, width: f.width, height: f.height, format: f.format, image: f.imageData }))),
  );
  attempt(11, (b) => (out.additionalPersonalDetails = parseDg11(b)));
  attempt(12, (b) => (out.additionalDocumentDetails = parseDg12(b)));
  return out;
}
