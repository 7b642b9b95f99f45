import type { DiscoveryService } from '@nestjs/core';
import { findReusableCredentialProvider, ReusableCredentials } from './reusable-credentials.js';

const discovering = (...providers: object[]) =>
  ({
    getProviders: ({ metadataKey }: { metadataKey: string }) => (metadataKey === ReusableCredentials.KEY ? providers.map((instance) => ({ instance })) : []),
    getMetadataByDecorator: () => undefined,
  }) as unknown as DiscoveryService;

describe('the reusable credentials extension point', () => {
  it('finds the one provider marked ReusableCredentials, none when the service issues no credential, and refuses two', () => {
    const issuer = { trustedIssuers: () => [] };
    expect(findReusableCredentialProvider(discovering(issuer))).toBe(issuer);
    expect(findReusableCredentialProvider(discovering())).toBeUndefined();
    expect(() => findReusableCredentialProvider(discovering(issuer, {}))).toThrow('2 providers are marked ReusableCredentials; there can be one');
  });
});
