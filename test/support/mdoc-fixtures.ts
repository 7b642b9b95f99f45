/** Shared fixtures of the mdoc tests: a test IACA, a device key, a PID and an mDL issued to it, a request's transcript. */
import { fullDate, issueTestMdoc, openId4VpSessionTranscript, type TestMdocInput, createTestSigner, type TestSigner } from '@identity-broker/eu-wallet';
import { createDeviceKeys, presentMdoc, type DeviceKeys, type PresentOptions } from './mdoc-holder.js';

export const PID = { docType: 'eu.europa.ec.eudi.pid.1', namespace: 'eu.europa.ec.eudi.pid.1' } as const;
export const MDL = { docType: 'org.iso.18013.5.1.mDL', namespace: 'org.iso.18013.5.1' } as const;

export const PID_VALUES = {
  family_name: 'Mustermann',
  given_name: 'Erika',
  birth_date: fullDate('1964-08-12'),
  nationality: ['DE'],
  age_over_18: true,
  issuing_country: 'UT',
  issuing_authority: 'Test PID Provider',
  expiry_date: fullDate('2031-01-01'),
  issuance_date: new Date('2025-01-02T03:04:05Z'),
  portrait: new Uint8Array([0xff, 0xd8, 0xff, 0xe0]),
};

export const MDL_VALUES = {
  family_name: 'Mustermann',
  given_name: 'Erika',
  birth_date: fullDate('1964-08-12'),
  issue_date: fullDate('2024-01-01'),
  expiry_date: fullDate('2034-01-01'),
  issuing_country: 'UT',
  issuing_authority: 'Test mDL Authority',
  document_number: 'T0000001',
  age_over_18: true,
  driving_privileges: [{ vehicle_category_code: 'B', issue_date: fullDate('2010-05-01') }],
  un_distinguishing_sign: 'UT',
};

export const REQUEST = { clientId: 'x509_hash:dGVzdC1yZXF1ZXN0LXNpZ25lcg', nonce: 'n-0S6_WzA2Mj', responseUri: 'https://broker.example/wallet/response' };

export const transcriptFor = (overrides: Partial<typeof REQUEST> = {}) => openId4VpSessionTranscript({ ...REQUEST, jwkThumbprint: null, ...overrides });

export interface MdocWorld {
  iaca: TestSigner;
  device: DeviceKeys;
  issue(input?: Partial<TestMdocInput>): Promise<Uint8Array>;
  present(options: Partial<PresentOptions> & { mdoc: Uint8Array }): Promise<Uint8Array>;
}

export async function mdocWorld(): Promise<MdocWorld> {
  const iaca = await createTestSigner({ rootName: 'Test IACA', signerName: 'Test Document Signer', country: 'UT' });
  const device = createDeviceKeys();
  return {
    iaca,
    device,
    issue: (input = {}) =>
      issueTestMdoc({ docType: PID.docType, namespaces: { [PID.namespace]: PID_VALUES }, signer: iaca, deviceKey: device.publicJwk, ...input }),
    present: (options) =>
      presentMdoc({
        docType: PID.docType,
        namespace: PID.namespace,
        elements: ['family_name', 'given_name', 'birth_date'],
        transcript: transcriptFor(),
        device,
        ...options,
      }),
  };
}
