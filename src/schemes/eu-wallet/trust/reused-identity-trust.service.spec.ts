import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Injectable, Module, type INestApplicationContext } from '@nestjs/common';
import { DiscoveryModule, NestFactory } from '@nestjs/core';
import { ReusableCredentials, type ReusableCredentialProvider } from '../../../broker/spi/reusable-credentials.js';
import { documentSubject, verifiedDocumentSubject } from '../../../broker/spi/subjects/document-subject.js';
import { APP_CONFIG } from '../../../config/load-config.js';
import { ReusedIdentityTrust } from './reused-identity-trust.service.js';

@Injectable()
@ReusableCredentials()
class OneIssuer implements ReusableCredentialProvider {
  readonly vct = 'https://broker.example/vct/verified-document-identity';
  readonly issuer = 'https://broker.example/vci';
  async anchors(): Promise<Uint8Array[]> {
    return [new Uint8Array([1])];
  }
}

@Injectable()
@ReusableCredentials()
class AnotherIssuer extends OneIssuer {}

/** A Nest context of the trust service, the given providers, and WALLET_TRUST_OWN_CREDENTIALS as given. */
async function trustWith(
  providers: (typeof OneIssuer)[],
  trustOwnCredentials: boolean,
): Promise<{ context: INestApplicationContext; trust: ReusedIdentityTrust }> {
  @Module({
    imports: [DiscoveryModule],
    providers: [{ provide: APP_CONFIG, useValue: { schemes: { 'eu-wallet': { trustOwnCredentials } } } }, ReusedIdentityTrust, ...providers],
  })
  class Root {}
  const context = await NestFactory.createApplicationContext(Root, { logger: false, abortOnError: false });
  return { context, trust: context.get(ReusedIdentityTrust) };
}

describe('the wallet scheme finds the reusable credential provider by its mark', () => {
  it('trusts the one marked provider, with its anchors', async () => {
    const { context, trust } = await trustWith([OneIssuer], true);
    expect(trust.trusted()).toBeInstanceOf(OneIssuer);
    expect((await trust.trustedWithAnchors())?.anchors).toEqual([new Uint8Array([1])]);
    await context.close();
  });

  it('trusts none without a provider, or when WALLET_TRUST_OWN_CREDENTIALS is false', async () => {
    for (const [providers, on] of [
      [[], true],
      [[OneIssuer], false],
    ] as const) {
      const { context, trust } = await trustWith([...providers], on);
      expect([trust.trusted(), await trust.trustedWithAnchors()]).toEqual([undefined, undefined]);
      await context.close();
    }
  });

  it('refuses to start with two providers (which credential would it be?)', async () => {
    await expect(trustWith([OneIssuer, AnotherIssuer], true)).rejects.toThrow(/2 providers are marked ReusableCredentials/);
  });
});

/** Every .ts file under a folder. */
const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : path.endsWith('.ts') ? [path] : [];
  });

describe('layering: the credential issuer is a front door', () => {
  it('is imported by neither the wallet scheme nor the broker (they see only src/broker/spi/reusable-credentials.ts)', () => {
    const importers = [...filesUnder('src/schemes'), ...filesUnder('src/broker'), ...filesUnder('src/schemes/document-verifier')].filter((file) =>
      /from\s+['"][^'"]*credential-issuer[^'"]*['"]|import\(\s*['"][^'"]*credential-issuer/.test(readFileSync(file, 'utf8')),
    );
    expect(importers).toEqual([]);
  });

  it('is a front-door room for eslint-plugin-boundaries, so a scheme importing it fails the lint', () => {
    expect(readFileSync('eslint.config.mjs', 'utf8')).toMatch(/\['front-door', \[[^\]]*'src\/credential-issuer'/);
  });
});

describe('subject of a reused credential', () => {
  it('is the document verifier’s subject of the same document', () => {
    const secret = 'x'.repeat(32);
    expect(verifiedDocumentSubject(secret, 'D', 'C01X00T47')).toBe(documentSubject(secret, 'document-verifier', 'D', 'C01X00T47'));
  });
});
