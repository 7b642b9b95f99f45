import { createPrivateKey, createPublicKey } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { flipHorizontal } from '@identity-broker/face';
import { parseDg14, answerChipAuthentication, signActiveAuthChallenge } from '@identity-broker/icao9303';
import type { ChipAuthChallenge, ChipData, FaceFrame, LivenessChallenge, PhoneSide } from '@identity-broker/verifier-sdk';
import { crossFade, decodeImage, encodeJpeg, rotate, shift } from './synthesise-frames.js';

/**
 * A phone stand-in for customer-test: the chip is a specimen document folder (sod.bin, dgN.bin,
 * aa-key.der for Active Authentication, ca-key.der for Chip Authentication), the camera is a set of still
 * images: facing the camera, head turned left, head turned right. Bursts are synthesised from them (see
 * captureFrames); pitch (nodding) is not asked by the server, so no up/down images are needed.
 */
export interface SpecimenPhoneOptions {
  documentDir: string;
  /** Facing the camera. */
  selfie: Uint8Array;
  /**
   * Head turned to the subject's left / right. Each defaults to the mirror image of the other, which the server
   * refuses as a still picture (a mirrored photo is the classic way to fake the other turn): give both.
   */
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
  return encodeJpeg(flipHorizontal(await decodeImage(image)));
}

/** Tilt frames: rotations of the centre frame (degrees counter-clockwise on screen = towards the subject's right shoulder). */
const TILT_STEPS = [10, 20];
/** A movement asked again later gets its frames moved sideways by this fraction of the width per repeat, so they are new frames. */
const REPEAT_SHIFT = 0.08;

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
    /**
     * Step 0 is the selfie as given. A turn is a burst of two frames: the selfie half blended into the turned
     * image (the detector reads a pose between the two), then the turned image. A tilt is the selfie rotated 10°
     * then 20°. A movement asked twice is shifted sideways the second time (a real camera never repeats a frame).
     */
    async captureFrames(challenge: LivenessChallenge): Promise<FaceFrame[]> {
      const centre = await decodeImage(options.selfie);
      const turned = {
        left: await decodeImage(options.left ?? (options.right ? await mirror(options.right) : options.selfie)),
        right: await decodeImage(options.right ?? (options.left ? await mirror(options.left) : options.selfie)),
      };
      const at = () => options.capturedAt?.() ?? new Date();
      const frames: FaceFrame[] = [{ step: 0, image: options.selfie, capturedAt: at() }];
      const seen = new Map<string, number>();
      challenge.steps.forEach((direction, step) => {
        if (step === 0) return;
        const repeat = seen.get(direction) ?? 0;
        seen.set(direction, repeat + 1);
        const burst =
          direction === 'left' || direction === 'right'
            ? [crossFade(centre, turned[direction], 0.5), turned[direction]]
            : TILT_STEPS.map((degrees) => rotate(centre, direction === 'tilt_right' ? degrees : -degrees));
        for (const image of burst) frames.push({ step, image: encodeJpeg(shift(image, Math.round(repeat * REPEAT_SHIFT * image.width))), capturedAt: at() });
      });
      return frames;
    },
  };
}
