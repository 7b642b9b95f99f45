/**
 * The configuration of a stock Shibboleth SP 3 (Debian's libapache2-mod-shib) for our SAML 1.1 IdP, as
 * docs/saml-sp-setup.md gives it: the tests write exactly these files and run shibd and Apache on them.
 */

/** Our attribute names (spec 2.1 second column) as the SP should export them: attribute-map.xml ids. */
export const BROKER_ATTRIBUTE_NAMES = [
  'documenttype',
  'issuingcountry',
  'interpretedissuingcountry',
  'documentnumber',
  'primaryidentifier',
  'secondaryidentifier',
  'nationality',
  'interpretednationality',
  'DOB',
  'personalnumber',
  'gender',
  'dateofexpiry',
  'fullname',
  'placeofbirth',
  'facematchlevel',
  'AUTHFILESURL',
  'ACR',
  'AUTHENTICATION_SOURCES',
  'OTHER_IDENTIFIER',
  'AUTHENTICATION_RESULT',
  'result_explanation',
] as const;

/** The id the SP gives the NameIdentifier (the merchant's subject, = OIDC sub); also REMOTE_USER. */
export const SUBJECT_ATTRIBUTE_ID = 'broker-subject';

/**
 * attribute-map.xml: each attribute by its AttributeName (in SAML 1.1 the SP treats our AttributeNamespace,
 * urn:mace:shibboleth:1.0:attributeNamespace:uri, as the default, so no nameFormat), exported under the same
 * name; the NameIdentifier by its Format (unspecified). age_over_NN attributes would be listed the same way.
 */
export function attributeMapXml(): string {
  const attributes = BROKER_ATTRIBUTE_NAMES.map((name) => `    <Attribute name="${name}" id="${name}"/>`).join('\n');
  return `<Attributes xmlns="urn:mace:shibboleth:2.0:attribute-map" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
    <Attribute name="urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified" id="${SUBJECT_ATTRIBUTE_ID}"/>
${attributes}
</Attributes>
`;
}

export interface ShibbolethConfigInput {
  /** The SP's entity ID: the merchant's saml.entity_id. */
  entityId: string;
  /** Our entity ID: {BASE_URL}/saml/metadata. */
  idpEntityId: string;
  /** Where the SP fetches our metadata (the same URL). */
  idpMetadataUrl: string;
  /** Files in the SP's configuration directory. */
  files: {
    backingMetadata: string;
    idpCertificate: string;
    attributeMap: string;
    spKey: string;
    spCertificate: string;
    shibdLogger: string;
    nativeLogger: string;
  };
  /** The merchant's client_id and client_secret: HTTP Basic on artifact resolution. */
  artifactCredentials: { clientId: string; clientSecret: string };
  /** shibd's listener, shared with mod_shib. */
  listenerPort: number;
  /** Debian's security-policy.xml and protocols.xml. */
  systemConfigDir: string;
  /** Plain http (tests): no Secure cookies, handler over http. */
  plainHttp: boolean;
  /** Artifact resolution (with the Basic password) allowed over plain http: tests on localhost only. */
  backChannelOverHttp: boolean;
}

const xmlAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * shibboleth2.xml. The parts for us: <SSO> with SAML1 only (the Shib1 SessionInitiator, our AuthnRequest
 * profile), Local logout with redirectLimit="exact", the signed metadata by URL with our certificate pinned,
 * and the RelyingParty for our entity ID giving the Basic credentials of artifact resolution.
 */
export function shibboleth2Xml(c: ShibbolethConfigInput): string {
  const http = c.plainHttp;
  return `<SPConfig xmlns="urn:mace:shibboleth:3.0:native:sp:config" xmlns:conf="urn:mace:shibboleth:3.0:native:sp:config" clockSkew="180">
    <OutOfProcess logger="${c.files.shibdLogger}"/>
    <InProcess logger="${c.files.nativeLogger}"/>
    <TCPListener address="127.0.0.1" port="${c.listenerPort}" acl="127.0.0.1"/>

    <ApplicationDefaults entityID="${xmlAttr(c.entityId)}" REMOTE_USER="${SUBJECT_ATTRIBUTE_ID}">
        <Sessions lifetime="28800" timeout="3600" relayState="ss:mem" checkAddress="false"
                  handlerSSL="${http ? 'false' : 'true'}" cookieProps="${http ? 'http' : 'https'}" redirectLimit="exact">
            <SSO entityID="${xmlAttr(c.idpEntityId)}">SAML1</SSO>
            <Logout>Local</Logout>
            <Handler type="Status" Location="/Status" acl="127.0.0.1 ::1"/>
        </Sessions>

        <Errors supportContact="root@localhost" styleSheet="/shibboleth-sp/main.css"/>

        <MetadataProvider type="XML" validate="true" url="${xmlAttr(c.idpMetadataUrl)}" backingFilePath="${c.files.backingMetadata}" maxRefreshDelay="7200">
            <MetadataFilter type="RequireValidUntil" maxValidityInterval="1209600"/>
            <MetadataFilter type="Signature" certificate="${c.files.idpCertificate}" verifyBackup="true"/>
        </MetadataProvider>

        <AttributeExtractor type="XML" validate="true" reloadChanges="false" path="${c.files.attributeMap}"/>

        <CredentialResolver type="File" key="${c.files.spKey}" certificate="${c.files.spCertificate}"/>

        <RelyingParty Name="${xmlAttr(c.idpEntityId)}" authType="basic"
                      authUsername="${xmlAttr(c.artifactCredentials.clientId)}" authPassword="${xmlAttr(c.artifactCredentials.clientSecret)}"${
                        c.backChannelOverHttp ? ' requireConfidentiality="false"' : ''
                      }/>
    </ApplicationDefaults>

    <SecurityPolicyProvider type="XML" validate="true" path="${c.systemConfigDir}/security-policy.xml"/>
    <ProtocolProvider type="XML" validate="true" reloadChanges="false" path="${c.systemConfigDir}/protocols.xml"/>
</SPConfig>
`;
}

/**
 * The Apache side of a protected path: mod_shib demands a session there (starting the SP-initiated sign-on
 * when there is none) and exports the attributes to the application as environment variables.
 */
export function protectedLocationConf(path = '/secure'): string {
  return `<Location /Shibboleth.sso>
  AuthType None
  Require all granted
</Location>
<Location ${path}>
  AuthType shibboleth
  ShibRequestSetting requireSession 1
  Require shib-session
</Location>
`;
}

/** A log4shib configuration writing everything at `level` to one file. */
export function loggerConfig(file: string, level = 'INFO'): string {
  return `log4j.rootCategory=${level}, file
log4j.appender.file=org.apache.log4j.FileAppender
log4j.appender.file.fileName=${file}
log4j.appender.file.layout=org.apache.log4j.PatternLayout
log4j.appender.file.layout.ConversionPattern=%d{%H:%M:%S} %p %c %x: %m%n
`;
}
