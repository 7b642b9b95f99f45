import { createPrivateKey, createPublicKey } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import jpeg from 'jpeg-js';
import { decodeImage } from '../../libs/face/src/image/decode-image.js';
import { flipHorizontal } from '../../libs/face/src/image/flip-horizontal.js';
import { parseDg14 } from '../../libs/icao9303/src/lds/dg14.js';
import { answerChipAuthentication } from '../../libs/icao9303/src/specimen/chipAuthChip.js';
import { signActiveAuthChallenge } from '../../libs/icao9303/src/specimen/document.js';
import type { ChipAuthChallenge, ChipData, FaceFrame, PhoneSide, Pose } from '../../libs/verifier-sdk/src/index.js';

/**
 * A phone stand-in for customer-test: the chip is a specimen document folder (sod.bin, dgN.bin,
 * aa-key.der for Active Authentication, ca-key.der for Chip Authentication), the camera is a set of still
 * images, one per pose.
 */
export interface SpecimenPhoneOptions {
  documentDir: string;
  /** Facing the camera. */
  selfie: Uint8Array;
  /** Head turned to the subject's left / right; each defaults to the mirror image of the other. */
  left?: Uint8Array;
  right?: Uint8Array;
  /** Answer with this recorded AA signature instead of signing the challenge (to show replay protection). */
  replayedActiveAuth?: Uint8Array;
  /** Date the frames were captured (default now). */
  capturedAt?: () => Date;
}

export function readDocumentDir(dir: string): { sod: Uint8Array; dataGroups: Map<number, Uint8Array>; aaKey?: Uint8Array; caKey?: Uint8Array } {
  const sod = new Uint8Array(readFileSync(join(dir, 'sod.bin')));
  const dataGroups = new Map<number, Uint8Array>();
  for (const name of readdirSync(dir)) {
    const m = /^dg(\d{1,2})\.bin$/.exec(name);
    if (m) dataGroups.set(Number(m[1]), new Uint8Array(readFileSync(join(dir, name))));
  }
  const key = (name: string) => (existsSync(join(dir, name)) ? new Uint8Array(readFileSync(join(dir, name))) : undefined);
  return { sod, dataGroups, aaKey: key('aa-key.der'), caKey: key('ca-key.der') };
}

export async function mirror(image: Uint8Array): Promise<Uint8Array> {
  const rgb = flipHorizontal(await decodeImage(image));
  const rgba = Buffer.alloc(rgb.width * rgb.height * 4);
  for (let i = 0, j = 0; i < rgb.data.length; i += 3, j += 4) {
    rgba[j] = rgb.data[i];
    rgba[j + 1] = rgb.data[i + 1];
    rgba[j + 2] = rgb.data[i + 2];
    rgba[j + 3] = 255;
  }
  return new Uint8Array(jpeg.encode({ width: rgb.width, height: rgb.height, data: rgba }, 92).data);
}

export function specimenPhone(options: SpecimenPhoneOptions): PhoneSide {
  const document = readDocumentDir(options.documentDir);
  return {
    async readChip(challenge: Uint8Array): Promise<ChipData> {
      let activeAuthSignature = options.replayedActiveAuth;
      if (!activeAuthSignature && document.aaKey) {
        const privateKey = createPrivateKey({ key: Buffer.from(document.aaKey), format: 'der', type: 'pkcs8' });
        const type = privateKey.asymmetricKeyType === 'rsa' ? 'RSA' : 'EC';
        activeAuthSignature = signActiveAuthChallenge({ activeAuthKey: { type, privateKey, publicKey: createPublicKey(privateKey) } }, challenge);
      }
      return { sod: document.sod, dataGroups: document.dataGroups, activeAuthSignature };
    },
    // The specimen chip's side of Chip Authentication (ICAO 9303-11 §6.2): its DG14 key and the cipher DG14 names.
    async chipAuthenticate(challenge: ChipAuthChallenge): Promise<Uint8Array> {
      const dg14 = document.dataGroups.get(14);
      if (!document.caKey || !dg14) throw new Error('the specimen document has no Chip Authentication key (ca-key.der) or no DG14');
      const privateKey = createPrivateKey({ key: Buffer.from(document.caKey), format: 'der', type: 'pkcs8' });
      const info = parseDg14(dg14).chipAuthenticationInfos[0];
      const cipher = info && info.cipher !== 'unknown' ? info.cipher : '3DES';
      return answerChipAuthentication({ keyAgreement: 'ECDH', privateKey, cipher }, challenge.terminalPublicKey, challenge.protectedCommand);
    },
    async captureFrames(sequence: Pose[]): Promise<FaceFrame[]> {
      const left = options.left ?? (options.right ? await mirror(options.right) : options.selfie);
      const right = options.right ?? (options.left ? await mirror(options.left) : options.selfie);
      const byPose: Record<Pose, Uint8Array> = { left, right, center: options.selfie };
      return sequence.map((pose) => ({ pose, image: byPose[pose], capturedAt: options.capturedAt?.() ?? new Date() }));
    },
  };
}
