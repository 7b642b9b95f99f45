/**
 * The rooms of docs/architecture.md#rules as eslint.config.mjs holds them: each rule refuses a planted import that
 * breaks it and lets the legal one through. The planted files exist only as text handed to ESLint under a path inside
 * the room (nothing is written); their imports name real files, so the resolver places them in their rooms.
 */
import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const eslint = new ESLint({ cwd: ROOT });

/** The boundaries messages ESLint gives `code` as if it were the file at `filePath` (relative to the repository). */
async function roomErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((m) => m.ruleId === 'boundaries/dependencies').map((m) => m.message);
}

const importing = (from: string, name: string) => `import { ${name} } from '${from}';\nexport const planted = ${name};\n`;

describe('the rooms of the lint', () => {
  describe('a scheme imports no other scheme', () => {
    it('refuses the document verifier importing the test eID', async () => {
      const errors = await roomErrors('src/schemes/document-verifier/planted.ts', importing('../test-eid/test-eid.module.js', 'TestEidModule'));
      expect(errors).toEqual([expect.stringContaining('name="test-eid"')]);
    });

    it('refuses the upstream schemes importing the EU wallet', async () => {
      const errors = await roomErrors('src/schemes/upstream-oidc/planted.ts', importing('../eu-wallet/eu-wallet.module.js', 'EuWalletModule'));
      expect(errors).toHaveLength(1);
    });

    it('lets a scheme import itself, the broker SPI and the rooms below', async () => {
      const code = [
        "import { TestEidModule } from '../test-eid/test-eid.module.js';",
        "import { DocumentEvidence } from '../../broker/spi/document-evidence/document-evidence.js';",
        "import { SPECIMEN_IDENTITIES } from '../../verifier-claims/specimen-identities.js';",
        'export const planted = [TestEidModule, DocumentEvidence, SPECIMEN_IDENTITIES];',
      ].join('\n');
      expect(await roomErrors('src/schemes/test-eid/planted.ts', code)).toEqual([]);
    });
  });

  describe('a front door reaches a scheme only through the broker SPI', () => {
    it('refuses the credential issuer importing the document verifier', async () => {
      const code = importing('../../schemes/document-verifier/records/verification-records.service.js', 'VerificationRecordsService');
      const errors = await roomErrors('src/credential-issuer/offer/planted.ts', code);
      expect(errors).toEqual([expect.stringContaining('"front-door" to elements of type "scheme"')]);
    });

    it('refuses OIDC importing an upstream scheme, and CIBA the test eID', async () => {
      expect(
        await roomErrors('src/oidc/interaction/planted.ts', importing('../../schemes/upstream-oidc/upstream-auth-time.js', 'brokeredAuthTime')),
      ).toHaveLength(1);
      expect(await roomErrors('src/ciba/test-page/planted.ts', importing('../../schemes/test-eid/test-eid.module.js', 'TestEidModule'))).toHaveLength(1);
    });

    it('lets a front door import the broker SPI, the broker core and another front door', async () => {
      const code = [
        "import { DocumentEvidence } from '../../broker/spi/document-evidence/document-evidence.js';",
        "import { EidRegistry } from '../../broker/schemes/eid-registry.js';",
        "import { OidcModule } from '../../oidc/oidc.module.js';",
        'export const planted = [DocumentEvidence, EidRegistry, OidcModule];',
      ].join('\n');
      expect(await roomErrors('src/credential-issuer/offer/planted.ts', code)).toEqual([]);
    });
  });

  describe('main.ts and app.module.ts belong to the top room', () => {
    it('refuses a lower room importing app.module.ts or main.ts', async () => {
      expect(await roomErrors('src/common/planted.ts', importing('../app.module.js', 'AppModule'))).toEqual([expect.stringContaining('"assembly"')]);
      expect(await roomErrors('src/oidc/planted.ts', importing('../app.module.js', 'AppModule'))).toHaveLength(1);
      expect(await roomErrors('src/schemes/test-eid/planted.ts', importing('../../main.js', 'x'))).toHaveLength(1);
    });

    it('lets bootstrap import app.module.ts, and app.module.ts every room, schemes included', async () => {
      expect(await roomErrors('src/bootstrap/planted.ts', importing('../app.module.js', 'AppModule'))).toEqual([]);
      const code = [
        "import { VerifierModule } from './schemes/document-verifier/verifier.module.js';",
        "import { OidcModule } from './oidc/oidc.module.js';",
        "import { createApp } from './bootstrap/create-app.js';",
        'export const planted = [VerifierModule, OidcModule, createApp];',
      ].join('\n');
      expect(await roomErrors('src/app.module.ts', code)).toEqual([]);
    });
  });

  it('keeps the configuration below the platform: config/ imports nothing of common/', async () => {
    expect(await roomErrors('src/config/planted.ts', importing('../common/logging/logger.js', 'logger'))).toEqual([
      expect.stringContaining('"config" to elements of type "platform"'),
    ]);
    expect(await roomErrors('src/common/planted.ts', importing('../config/load-config.js', 'APP_CONFIG'))).toEqual([]);
  });

  it('still refuses an import that runs up the rooms', async () => {
    expect(await roomErrors('src/broker/spi/planted.ts', importing('../../schemes/test-eid/test-eid.module.js', 'TestEidModule'))).toHaveLength(1);
    expect(await roomErrors('src/config/planted.ts', importing('../merchants/merchants.module.js', 'MerchantsModule'))).toHaveLength(1);
  });
});
