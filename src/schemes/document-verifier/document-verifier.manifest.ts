import type { SchemeManifest } from '../../broker/spi/scheme-manifest.js';
import { loadVerifierConfig } from './config/verifier-config.js';
import { Verifier1700000000003 } from './migrations/1700000000003-verifier.js';
import { ChipAuthChallenge1700000000007 } from './migrations/1700000000007-chip-auth-challenge.js';
import { DocumentFaceTemplate1700000000220 } from './migrations/1700000000220-document-face-template.js';
import { VerificationRecordClaims1700000000257 } from './migrations/1700000000257-verification-record-claims.js';

const KiB = 1024;
const MiB = 1024 * KiB;

/**
 * The document verifier (docs/document-verifier.md). Its app API's uploads are the service's largest bodies: the
 * chip files (EF.SOD and the data groups, DG2 tens of KB) and the face frames (up to 17, hundreds of KB each) need
 * megabytes, the specimen's face image up to 700 KB of Base64, DG14 a few KB; anyone on the internet may send to
 * them, so they are read bounded. The face step (the liveness challenge and the frames, each a few seconds of CPU)
 * has its own rate limit per session.
 */
export const manifest: SchemeManifest = {
  name: 'document-verifier',
  order: 10,
  config: loadVerifierConfig,
  module: () => import('./verifier.module.js').then((m) => m.VerifierModule),
  migrations: [Verifier1700000000003, ChipAuthChallenge1700000000007, DocumentFaceTemplate1700000000220, VerificationRecordClaims1700000000257],
  http: {
    bodyLimits: [
      { path: '/app/v1/session/chip', kind: 'bounded-json', bytes: 8 * MiB },
      { path: '/app/v1/session/face', kind: 'bounded-json', bytes: 8 * MiB },
      { path: '/app/v1/specimen-documents', kind: 'bounded-json', bytes: MiB },
      { path: '/app/v1/session/ca-challenge', kind: 'bounded-json', bytes: 32 * KiB },
    ],
    // The session steps are refused from their headers (no or no live session) before their body is read.
    beforeBody: [
      {
        path: '/app/v1/session',
        middleware: async (get) => {
          const [{ appSessionBeforeBody }, { VerificationSessionsService }] = await Promise.all([
            import('./app-api/app-session.guard.js'),
            import('./session/verification-sessions.service.js'),
          ]);
          return appSessionBeforeBody(get(VerificationSessionsService));
        },
      },
    ],
    rateLimits: [{ paths: ['/app/v1/session/face', '/app/v1/session/liveness-challenge'], method: 'POST', bucket: 'face', per: 'bearer' }],
  },
};
