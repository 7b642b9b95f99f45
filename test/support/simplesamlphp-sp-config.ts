/**
 * The configuration of a stock SimpleSAMLphp 1.19 (Debian's simplesamlphp) as a SAML 1.1 SP of our IdP, as
 * docs/saml-sp-setup.md gives it: the tests write exactly these files.
 */

const php = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

export interface SimpleSamlPhpConfigInput {
  /** http://localhost:<port>/ : where SimpleSAMLphp's www/ is served. */
  baseUrl: string;
  dir: { metadata: string; log: string; data: string; temp: string; cert: string; sessions: string };
  secretSalt: string;
  adminPassword: string;
  /** Plain http (tests): cookies without Secure and SameSite=None. */
  plainHttp: boolean;
  /** DEBUG (tests: the log explains a failure) or NOTICE. */
  logLevel: 'DEBUG' | 'NOTICE';
}

/** config.php: what differs from the defaults; metadata from the flat files metarefresh writes. */
export function configPhp(c: SimpleSamlPhpConfigInput): string {
  return `<?php
$config = [
    'baseurlpath' => ${php(c.baseUrl)},
    'metadatadir' => ${php(`${c.dir.metadata}/`)},
    'loggingdir' => ${php(`${c.dir.log}/`)},
    'datadir' => ${php(`${c.dir.data}/`)},
    'tempdir' => ${php(c.dir.temp)},
    'certdir' => ${php(`${c.dir.cert}/`)},
    'secretsalt' => ${php(c.secretSalt)},
    'auth.adminpassword' => ${php(c.adminPassword)},
    'technicalcontact_email' => 'na@example.org',
    'timezone' => 'UTC',
    'logging.level' => SimpleSAML\\Logger::${c.logLevel},
    'logging.handler' => 'file',
    'logging.logfile' => 'simplesamlphp.log',
    'store.type' => 'phpsession',
    'session.phpsession.savepath' => ${php(c.dir.sessions)},
    'session.cookie.secure' => ${c.plainHttp ? 'false' : 'true'},
    'session.cookie.samesite' => ${c.plainHttp ? 'null' : "'None'"},
    'language.cookie.secure' => ${c.plainHttp ? 'false' : 'true'},
    'language.cookie.samesite' => ${c.plainHttp ? 'null' : "'None'"},
    'module.enable' => ['core' => true, 'saml' => true, 'metarefresh' => true],
    'metadata.sources' => [['type' => 'flatfile']],
];
`;
}

/**
 * authsources.php: one saml:SP whose IdP is ours. SimpleSAMLphp speaks SAML 1.1 to it because metarefresh
 * files our metadata under shib13-idp-remote (its role names SAML 1.1, not 2.0).
 */
export function authsourcesPhp(sp: { entityId: string; idpEntityId: string }): string {
  return `<?php
$config = [
    'admin' => ['core:AdminPassword'],
    'default-sp' => [
        'saml:SP',
        'entityID' => ${php(sp.entityId)},
        'idp' => ${php(sp.idpEntityId)},
    ],
];
`;
}
