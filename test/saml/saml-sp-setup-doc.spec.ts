import { readFileSync } from 'node:fs';
import { attributeMapXml, protectedLocationConf, shibboleth2Xml } from '../support/shibboleth-sp-config.js';
import { authsourcesPhp, configPhp } from '../support/simplesamlphp-sp-config.js';

/**
 * docs/saml-sp-setup.md shows the configuration the real-SP tests run (shibboleth-sp.e2e-spec.ts,
 * simplesamlphp-sp.e2e-spec.ts), rendered for a production SP (https, example names). These renderings must
 * appear in the page verbatim, so the page cannot drift from what was tested.
 */
const BROKER = 'https://broker.example/saml/metadata';

const DOC_EXAMPLES = {
  shibboleth2: shibboleth2Xml({
    entityId: 'https://shop.example/shibboleth',
    idpEntityId: BROKER,
    idpMetadataUrl: BROKER,
    files: {
      backingMetadata: 'broker-metadata.xml',
      idpCertificate: 'broker-saml.pem',
      attributeMap: 'attribute-map.xml',
      spKey: 'sp-key.pem',
      spCertificate: 'sp-cert.pem',
      shibdLogger: 'shibd.logger',
      nativeLogger: 'native.logger',
    },
    artifactCredentials: { clientId: 'YOUR_CLIENT_ID', clientSecret: 'YOUR_CLIENT_SECRET' },
    listenerPort: 1600,
    systemConfigDir: '/etc/shibboleth',
    plainHttp: false,
    backChannelOverHttp: false,
  }),
  attributeMap: attributeMapXml(),
  apache: protectedLocationConf('/secure'),
  configPhp: configPhp({
    baseUrl: 'https://shop.example/simplesaml/',
    dir: {
      metadata: '/var/lib/simplesamlphp/metadata',
      log: '/var/log/simplesamlphp',
      data: '/var/lib/simplesamlphp/data',
      temp: '/var/lib/simplesamlphp/tmp',
      cert: '/etc/simplesamlphp/cert',
      sessions: '/var/lib/simplesamlphp/sessions',
    },
    secretSalt: 'A_LONG_RANDOM_SECRET',
    adminPassword: 'AN_ADMIN_PASSWORD',
    plainHttp: false,
    logLevel: 'NOTICE',
  }),
  authsources: authsourcesPhp({ entityId: 'https://shop.example/simplesaml/module.php/saml/sp/metadata.php/default-sp', idpEntityId: BROKER }),
};

describe('docs/saml-sp-setup.md shows the tested configuration', () => {
  const page = readFileSync('docs/saml-sp-setup.md', 'utf8');

  it.each(Object.entries(DOC_EXAMPLES))('%s appears verbatim', (_name, rendered) => {
    expect(page).toContain(rendered.trimEnd());
  });

  it('is linked from docs/saml.md', () => {
    expect(readFileSync('docs/saml.md', 'utf8')).toContain('(saml-sp-setup.md)');
  });
});
