import { createHash } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, errors, exportJWK, generateKeyPair, importJWK, type JWK, jwtVerify, SignJWT } from 'jose';
import { certificateThumbprint } from '../../src/credential-issuer/keys/issuer-certificates.js';
import { IssuerKeysService } from '../../src/credential-issuer/issuer-state.js';
import { MAX_PUBLISHED_KEYS } from '../../src/credential-issuer/keys/issuer-keys.service.js';
import { CredentialStatusPurgeService } from '../../src/credential-issuer/status/credential-status-purge.service.js';
import { adminClient } from '../support/admin-client.js';
import { offerFor, passedRecord, testKey } from '../support/credential-issuer.js';
import { writeIssuerFiles } from '../support/issuer-files.js';
import { productionTestEnv, startTestApp, type TestApp } from '../support/test-app.js';
import { vciClient } from '../support/vci-client.js';

interface IssuerMetadata {
  issuer: string;
  jwks: { keys: (JWK & { kid: string })[] };
}

/** SD-JWT VC draft, "JWT VC Issuer Metadata": `/.well-known/jwt-vc-issuer` inserted between the host and the issuer's path. */
const metadataUrlOf = (issuer: string) => {
  const url = new URL(issuer);
  return `${url.origin}/.well-known/jwt-vc-issuer${url.pathname === '/' ? '' : url.pathname}`;
};

/**
 * A verifier that is not ours: it knows the credential's `iss` and nothing else, reads the issuer's metadata with
 * plain fetch, picks the key by the header's kid, and checks the issuer JWT with jose (the issuer signs with @sd-jwt)
 * and each disclosure's digest with node:crypto. Answers the claims the disclosures give, or throws.
 */
async function verifyWithMetadataOnly(
  sdJwt: string,
  reach = (url: string) => url,
): Promise<{ payload: Record<string, unknown>; disclosed: Record<string, unknown>; metadata: IssuerMetadata }> {
  const [issuerJwt, ...rest] = sdJwt.split('~');
  const iss = decodeJwt(issuerJwt).iss!;
  const res = await fetch(reach(metadataUrlOf(iss)));
  if (res.status !== 200) throw new Error(`metadata: ${res.status}`);
  const metadata = (await res.json()) as IssuerMetadata;
  if (metadata.issuer !== iss) throw new Error('the metadata is of another issuer');
  const { kid } = decodeProtectedHeader(issuerJwt);
  const jwk = metadata.jwks.keys.find((k) => k.kid === kid);
  if (!jwk) throw new Error(`no key ${kid} in the issuer's metadata`);
  const { payload } = await jwtVerify(issuerJwt, await importJWK(jwk, 'ES256'), { issuer: metadata.issuer, typ: 'dc+sd-jwt', algorithms: ['ES256'] });
  // Every digest a signed payload or a disclosure carries (age_equal_or_over's members are disclosures inside one).
  const disclosures = rest.filter(Boolean).map((d) => ({ d, decoded: JSON.parse(Buffer.from(d, 'base64url').toString()) as [string, string, unknown] }));
  const sdOf = (value: unknown) =>
    JSON.stringify(value)
      .match(/"_sd":\[[^\]]*\]/g)
      ?.join() ?? '';
  const signed = new Set(`${sdOf(payload)}${disclosures.map(({ decoded }) => sdOf(decoded[2])).join()}`.match(/[A-Za-z0-9_-]{43}/g));
  const disclosed: Record<string, unknown> = {};
  for (const { d, decoded } of disclosures) {
    if (!signed.has(createHash('sha256').update(d).digest('base64url'))) throw new Error('a disclosure the issuer did not sign');
    disclosed[decoded[1]] = decoded[2];
  }
  return { payload, disclosed, metadata };
}

/** One credential, issued as a wallet gets it, for `record`; `base`: where the test reaches the instance. */
async function issue(t: TestApp, record = passedRecord(), base = t.baseUrl): Promise<string> {
  const vci = vciClient(t, base);
  const made = await offerFor(t, record);
  const offer = (await (await fetch(made.offerUri.replace(t.baseUrl, base))).json()) as { grants: Record<string, { 'pre-authorized_code': string }> };
  const key = await testKey();
  const grant = { grant_type: 'urn:ietf:params:oauth:grant-type:pre-authorized_code', tx_code: made.offer.txCode };
  const tokenRes = await vci.token(key, { ...grant, 'pre-authorized_code': Object.values(offer.grants)[0]['pre-authorized_code'] });
  const token = ((await tokenRes.json()) as { access_token: string }).access_token;
  const res = await vci.credential(key, token, await vci.nonce());
  expect(res.status).toBe(200);
  return ((await res.json()) as { credentials: { credential: string }[] }).credentials[0].credential;
}

describe('credential issuer: JWT VC Issuer Metadata, for verifiers other than ours', () => {
  let t: TestApp;
  let vci: ReturnType<typeof vciClient>;
  const completedAt = '2026-11-20T09:41:07.512Z';

  beforeAll(async () => {
    t = await startTestApp({ env: { VCI_ISSUER_KEY_RELOAD_SECONDS: '1' } });
    vci = vciClient(t);
  });
  afterAll(() => t?.close());

  it('is served where the issuer identifier puts it, names that identifier exactly, and lists public keys only', async () => {
    expect(metadataUrlOf(vci.issuer)).toBe(`${t.baseUrl}/.well-known/jwt-vc-issuer/vci`);
    const res = await fetch(`${t.baseUrl}/.well-known/jwt-vc-issuer/vci`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    const metadata = (await res.json()) as IssuerMetadata;
    expect(Object.keys(metadata).sort()).toEqual(['issuer', 'jwks']);
    expect(metadata.issuer).toBe(`${t.baseUrl}/vci`);
    // The credential issuer metadata names the same identifier (one issuer, two documents), and the evidence summary's claims.
    const vciMetadata = (await (await fetch(`${t.baseUrl}/.well-known/openid-credential-issuer/vci`)).json()) as {
      credential_issuer: string;
      credential_configurations_supported: Record<
        string,
        { credential_metadata: { claims: { path: string[]; display: { locale: string; name: string }[] }[] } }
      >;
    };
    expect(vciMetadata.credential_issuer).toBe(metadata.issuer);
    const claims = vciMetadata.credential_configurations_supported.verified_document_identity.credential_metadata.claims;
    for (const name of ['verification_trust_framework', 'verification_evidence_type', 'verification_time'])
      expect(claims.find((c) => c.path.join() === name)?.display).toHaveLength(12);
    expect(claims.find((c) => c.path.join() === 'verification_time')?.display).toContainEqual({ locale: 'en-GB', name: 'Verification time' });
    expect(metadata.jwks.keys.length).toBeGreaterThanOrEqual(1);
    for (const key of metadata.jwks.keys) {
      expect(Object.keys(key).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'use', 'x', 'x5c', 'y']);
      expect(key).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    }
  });

  it('verifies an issued credential with jose and the metadata alone: iss is the metadata issuer, the evidence summary is signed', async () => {
    const credential = await issue(t, passedRecord({ completedAt }));
    const header = decodeProtectedHeader(credential.split('~')[0]);
    // The credential names its key both ways: kid (the metadata) and x5c (the chain to the issuer's root), one key.
    expect(header).toMatchObject({ typ: 'dc+sd-jwt', alg: 'ES256', kid: expect.any(String), x5c: [expect.any(String)] });
    const { payload, disclosed, metadata } = await verifyWithMetadataOnly(credential);
    expect(payload.iss).toBe(metadata.issuer);
    expect(metadata.jwks.keys.find((k) => k.kid === header.kid)!.x5c).toEqual(header.x5c);
    expect(disclosed).toMatchObject({
      verification_trust_framework: 'urn:svc:trust-framework:test',
      verification_evidence_type: 'document',
      verification_time: '2026-11-20T09:41:07Z',
      verified_at: '2026-11-20',
    });
    // A changed disclosure is refused, as is an issuer JWT whose payload was changed under the same signature.
    const [jwt, first, ...others] = credential.split('~');
    const forged = Buffer.from(JSON.stringify([...JSON.parse(Buffer.from(first, 'base64url').toString()).slice(0, 2), 'FORGED'])).toString('base64url');
    await expect(verifyWithMetadataOnly([jwt, forged, ...others].join('~'))).rejects.toThrow('a disclosure the issuer did not sign');
    const [h, , s] = jwt.split('.');
    const changed = Buffer.from(JSON.stringify({ ...decodeJwt(jwt), vct: 'urn:other' })).toString('base64url');
    await expect(verifyWithMetadataOnly([`${h}.${changed}.${s}`, ...others].join('~'))).rejects.toBeInstanceOf(errors.JWSSignatureVerificationFailed);
  });

  it('refuses a credential signed by a key the metadata does not list: under our kid, or under its own', async () => {
    const credential = await issue(t, passedRecord({ completedAt }));
    const [jwt, ...rest] = credential.split('~');
    const header = decodeProtectedHeader(jwt);
    const stranger = await generateKeyPair('ES256');
    const resign = (kid: string) => new SignJWT(decodeJwt(jwt)).setProtectedHeader({ alg: 'ES256', typ: 'dc+sd-jwt', kid }).sign(stranger.privateKey);
    await expect(verifyWithMetadataOnly([await resign(header.kid!), ...rest].join('~'))).rejects.toBeInstanceOf(errors.JWSSignatureVerificationFailed);
    const strangerKid = (await exportJWK(stranger.publicKey)).x!;
    await expect(verifyWithMetadataOnly([await resign(strangerKid), ...rest].join('~'))).rejects.toThrow(`no key ${strangerKid} in the issuer's metadata`);
  });

  it('after a rotation lists the new key and the replaced one, whose credentials still verify; the key goes once they have all expired', async () => {
    const before = await issue(t, passedRecord({ completedAt }));
    const oldKid = decodeProtectedHeader(before.split('~')[0]).kid!;
    expect((await adminClient(t.baseUrl, t.adminToken).call('POST', '/admin/v1/credential-issuer/keys/rotate')).status).toBe(200);
    const after = await issue(t, passedRecord({ completedAt }));
    const newKid = decodeProtectedHeader(after.split('~')[0]).kid!;
    expect(newKid).not.toBe(oldKid);
    await verifyWithMetadataOnly(after);
    await verifyWithMetadataOnly(before);

    // Retired: the private key is destroyed, the certificate stays published.
    await t.dataSource.query(`UPDATE credential_issuer_keys SET retire_at = now() - interval '1 minute' WHERE kid = $1`, [oldKid]);
    await t.app.get(CredentialStatusPurgeService).run();
    expect(await t.dataSource.query(`SELECT private_key_sealed FROM credential_issuer_keys WHERE kid = $1`, [oldKid])).toEqual([{ private_key_sealed: null }]);
    await new Promise((r) => setTimeout(r, 1100));
    await verifyWithMetadataOnly(before);

    // Retired longer than any credential lives (VCI_CREDENTIAL_MAX_LIFETIME_DAYS, 365): the row and the published key go.
    await t.dataSource.query(`UPDATE credential_issuer_keys SET retire_at = now() - interval '367 days' WHERE kid = $1`, [oldKid]);
    await t.app.get(CredentialStatusPurgeService).run();
    await new Promise((r) => setTimeout(r, 1100));
    await expect(verifyWithMetadataOnly(before)).rejects.toThrow(`no key ${oldKid} in the issuer's metadata`);
    await verifyWithMetadataOnly(after);
  });

  it('lists at most MAX_PUBLISHED_KEYS keys, the signing one first, then the newest', async () => {
    const keys = t.app.get(IssuerKeysService);
    for (let i = 0; i <= MAX_PUBLISHED_KEYS; i++) await keys.rotate();
    const signing = (await keys.current()).kid;
    const metadata = (await (await fetch(`${t.baseUrl}/.well-known/jwt-vc-issuer/vci`)).json()) as IssuerMetadata;
    expect(metadata.jwks.keys).toHaveLength(MAX_PUBLISHED_KEYS);
    expect(metadata.jwks.keys[0].kid).toBe(signing);
    const newest = (await keys.list()).slice(0, MAX_PUBLISHED_KEYS).map((k) => k.kid);
    expect(metadata.jwks.keys.map((k) => k.kid).sort()).toEqual(newest.sort());
  });

  it('answers a failure through the one error renderer, and keeps no failed document', async () => {
    await new Promise((r) => setTimeout(r, 1100));
    await t.dataSource.query('ALTER TABLE credential_issuer_keys RENAME TO credential_issuer_keys_away');
    try {
      const res = await fetch(`${t.baseUrl}/.well-known/jwt-vc-issuer/vci`);
      expect(res.status).toBe(500);
      const body = (await res.json()) as Record<string, unknown>;
      expect(body.error).toEqual(expect.any(String));
      expect(JSON.stringify(body)).not.toMatch(/credential_issuer_keys|relation|stack/i);
    } finally {
      await t.dataSource.query('ALTER TABLE credential_issuer_keys_away RENAME TO credential_issuer_keys');
    }
    expect((await fetch(`${t.baseUrl}/.well-known/jwt-vc-issuer/vci`)).status).toBe(200);
    expect((await fetch(`${t.baseUrl}/.well-known/jwt-vc-issuer/other`)).status).toBe(404);
  });
});

/** Production: the operator's file signer is the one key; the evidence summary names the framework IDA_TRUST_FRAMEWORKS gives the document verifier. */
describe('credential issuer in production: JWT VC Issuer Metadata and the stated trust framework', () => {
  let t: TestApp;
  let local: string;
  let files: Awaited<ReturnType<typeof writeIssuerFiles>>;
  /** The signer the operator replaced: its certificate in VCI_ISSUER_PREVIOUS_CERTIFICATES. */
  let before: Awaited<ReturnType<typeof writeIssuerFiles>>;
  const reach = (url: string) => url.replace(t.baseUrl, local);

  beforeAll(async () => {
    [files, before] = [await writeIssuerFiles(), await writeIssuerFiles()];
    t = await startTestApp({
      env: {
        ...productionTestEnv(),
        VCI_ENABLED: 'true',
        VCI_ISSUER_KEY_FILE: files.keyFile,
        VCI_ISSUER_CERTIFICATE_CHAIN_FILE: files.chainFile,
        VCI_ISSUER_PREVIOUS_CERTIFICATES: before.leafOnlyFile,
        IDA_TRUST_FRAMEWORKS: JSON.stringify({ 'document-verifier': { trust_framework: 'eidas', assurance_level: 'substantial' } }),
      },
    });
    // Production's BASE_URL is its public https name; the test reaches its port directly.
    local = `http://127.0.0.1:${(t.app.getHttpServer().address() as { port: number }).port}`;
  });
  afterAll(() => t?.close());

  it('lists the file signer with its chain (no root); a genuine document is stated under the configured framework, a specimen under the test one', async () => {
    const metadata = (await (await fetch(`${local}/.well-known/jwt-vc-issuer/vci`)).json()) as IssuerMetadata;
    expect(metadata.issuer).toBe('https://broker.example/vci');
    expect(metadata.jwks.keys).toEqual([
      expect.objectContaining({ kty: 'EC', crv: 'P-256', x5c: [Buffer.from(files.leaf.der).toString('base64')] }),
      expect.objectContaining({ kid: certificateThumbprint(before.leaf.der), x5c: [Buffer.from(before.leaf.der).toString('base64')] }),
    ]);

    const genuine = await verifyWithMetadataOnly(await issue(t, passedRecord(), local), reach);
    expect(genuine.payload.iss).toBe(metadata.issuer);
    expect(genuine.disclosed).toMatchObject({ verification_trust_framework: 'eidas', verification_evidence_type: 'document' });
    const specimen = await verifyWithMetadataOnly(await issue(t, passedRecord({ specimen: true }), local), reach);
    expect(specimen.disclosed.verification_trust_framework).toBe('urn:svc:trust-framework:test');

    // A credential the replaced signer issued before the files were replaced still verifies by the metadata alone.
    const [jwt, ...disclosures] = (await issue(t, passedRecord(), local)).split('~');
    const older = await new SignJWT(decodeJwt(jwt))
      .setProtectedHeader({ alg: 'ES256', typ: 'dc+sd-jwt', kid: certificateThumbprint(before.leaf.der) })
      .sign(before.leaf.privateKey);
    expect((await verifyWithMetadataOnly([older, ...disclosures].join('~'), reach)).payload.iss).toBe(metadata.issuer);
  });
});
