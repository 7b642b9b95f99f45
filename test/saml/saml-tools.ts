/**
 * The peer tools of issue 12's acceptance, run for real: xmllint against the SAML 1.1 schemas that
 * opensaml-schemas installs, xmlsec1 and OpenSAML's samlsign on our signatures. `.ci/run` installs them;
 * where they are missing the tests skip, except under CI=true, where a missing tool fails the test.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newKeyAndCertificate } from '../../src/common/keys/self-signed.js';
import { itWhen } from '../support/when-available.js';

/** A key and self-signed certificate such as a merchant would register (CN only). */
export async function merchantCertificate(cn = 'shop.example'): Promise<string> {
  return (await newKeyAndCertificate(`CN=${cn}`, 1)).certificatePem;
}

function installedFile(pkg: string, name: string): string | undefined {
  const listed = spawnSync('dpkg', ['-L', pkg], { encoding: 'utf8' });
  return listed.status === 0 ? listed.stdout.split('\n').find((p) => p.endsWith(`/${name}`)) : undefined;
}

function onPath(tool: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
}

const PROTOCOL_XSD = installedFile('opensaml-schemas', 'cs-sstc-schema-protocol-1.1.xsd');
const XMLDSIG_XSD = installedFile('xmltooling-schemas', 'xmldsig-core-schema.xsd');
const METADATA_XSD = installedFile('opensaml-schemas', 'saml-schema-metadata-2.0.xsd');

export const samlTools = {
  xmllint: onPath('xmllint') && Boolean(PROTOCOL_XSD && XMLDSIG_XSD),
  xmlsec1: onPath('xmlsec1'),
  samlsign: onPath('samlsign'),
};

/**
 * `it` when the tool is there; otherwise a skipped test, or under CI=true a failing one (CI must run them).
 */
export function itWithTool(tool: keyof typeof samlTools, name: string, fn: () => Promise<void>, timeout?: number): void {
  itWhen({
    available: samlTools[tool],
    missing: `${tool} not installed`,
    install: 'apt-get install xmlsec1 opensaml-tools opensaml-schemas xmltooling-schemas libxml2-utils',
  })(name, fn, timeout);
}

function withFiles<T>(files: Record<string, string>, work: (dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'saml-tools-'));
  try {
    for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
    return work(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The SAML 1.1 schemas import the XML-DSig schema by its W3C URL; a catalog maps it to the local copy
 * (xmltooling-schemas) so xmllint validates offline (--nonet).
 */
function catalog(): string {
  const dir = XMLDSIG_XSD!.replace(/[^/]+$/, '');
  const local = (url: string, file: string) => `  <system systemId="${url}" uri="file://${dir}${file}"/>`;
  return `<?xml version="1.0"?>
<catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog">
${local('http://www.w3.org/TR/xmldsig-core/xmldsig-core-schema.xsd', 'xmldsig-core-schema.xsd')}
${local('http://www.w3.org/TR/2002/REC-xmldsig-core-20020212/xmldsig-core-schema.xsd', 'xmldsig-core-schema.xsd')}
${local('http://www.w3.org/TR/2002/REC-xmlenc-core-20021210/xenc-schema.xsd', 'xenc-schema.xsd')}
${local('http://www.w3.org/2001/xml.xsd', 'xml.xsd')}
</catalog>`;
}

export interface ToolResult {
  ok: boolean;
  output: string;
}

function run(cmd: string, args: string[], env: Record<string, string> = {}): ToolResult {
  const r = spawnSync(cmd, args, { encoding: 'utf8', env: { ...process.env, ...env } });
  return { ok: r.status === 0, output: `${r.stdout ?? ''}${r.stderr ?? ''}` };
}

/** xmllint --schema cs-sstc-schema-protocol-1.1.xsd (or the metadata schema). */
export function validateSchema(xml: string, schema: 'protocol' | 'metadata' = 'protocol'): ToolResult {
  const xsd = schema === 'protocol' ? PROTOCOL_XSD! : METADATA_XSD!;
  return withFiles({ 'doc.xml': xml, 'catalog.xml': catalog() }, (dir) =>
    run('xmllint', ['--nonet', '--noout', '--schema', xsd, join(dir, 'doc.xml')], { XML_CATALOG_FILES: join(dir, 'catalog.xml') }),
  );
}

const ID_ATTRS = [
  '--id-attr:ResponseID',
  'urn:oasis:names:tc:SAML:1.0:protocol:Response',
  '--id-attr:AssertionID',
  'urn:oasis:names:tc:SAML:1.0:assertion:Assertion',
  '--id-attr:ID',
  'urn:oasis:names:tc:SAML:2.0:metadata:EntityDescriptor',
];

/**
 * xmlsec1 --verify with our certificate as the only trusted one. Without `signatureOf` it checks the
 * first signature in the document (the response's); with 'assertion' the one inside the assertion.
 */
export function xmlsecVerify(xml: string, certificatePem: string, signatureOf?: 'assertion'): ToolResult {
  const node = signatureOf ? ['--node-xpath', "//*[local-name()='Assertion']/*[local-name()='Signature']"] : [];
  return withFiles({ 'doc.xml': xml, 'cert.pem': certificatePem }, (dir) =>
    run('xmlsec1', ['--verify', '--trusted-pem', join(dir, 'cert.pem'), ...ID_ATTRS, ...node, join(dir, 'doc.xml')]),
  );
}

/** OpenSAML's samlsign: the whole document's signature, or the object with that ID (an assertion). */
export function samlsignVerify(xml: string, certificatePem: string, id?: string): ToolResult {
  return withFiles({ 'doc.xml': xml, 'cert.pem': certificatePem }, (dir) =>
    run('samlsign', ['-f', join(dir, 'doc.xml'), '-c', join(dir, 'cert.pem'), ...(id ? ['-id', id] : [])]),
  );
}

/**
 * OpenSAML loading our metadata as a Shibboleth SP configured to pin it does: an XML MetadataProvider with a
 * SignatureMetadataFilter holding our certificate and a RequireValidUntil filter (at most `maxValidity`
 * seconds). samlsign then checks a response by that metadata; if the filter rejects the metadata, nothing is
 * trusted and samlsign fails.
 */
export function samlsignVerifyByPinnedMetadata(xml: string, metadata: string, issuer: string, certificatePem: string, maxValidity = 2_419_200): ToolResult {
  return withFiles({ 'doc.xml': xml, 'metadata.xml': metadata, 'cert.pem': certificatePem, 'trust.xml': '<TrustEngine type="ExplicitKey"/>' }, (dir) => {
    writeFileSync(
      join(dir, 'provider.xml'),
      `<MetadataProvider type="XML" path="${join(dir, 'metadata.xml')}">` +
        `<MetadataFilter type="RequireValidUntil" maxValidityInterval="${maxValidity}"/>` +
        `<MetadataFilter type="Signature" certificate="${join(dir, 'cert.pem')}"/>` +
        '</MetadataProvider>',
    );
    return run('samlsign', ['-f', join(dir, 'doc.xml'), '-T', join(dir, 'trust.xml'), '-M', join(dir, 'provider.xml'), '-i', issuer, '-saml11', '-idp']);
  });
}

/**
 * samlsign as a Shibboleth-family SP trusts an IdP: the signing key from our metadata (ExplicitKey trust
 * engine), looked up by the issuer's entity ID as a SAML 1.1 IdP.
 */
export function samlsignVerifyByMetadata(xml: string, metadata: string, issuer: string): ToolResult {
  return withFiles({ 'doc.xml': xml, 'metadata.xml': metadata, 'trust.xml': '<TrustEngine type="ExplicitKey"/>' }, (dir) => {
    // -T and -M name plug-in configurations (as in shibboleth2.xml), not the metadata itself.
    writeFileSync(join(dir, 'provider.xml'), `<MetadataProvider type="XML" path="${join(dir, 'metadata.xml')}"/>`);
    return run('samlsign', ['-f', join(dir, 'doc.xml'), '-T', join(dir, 'trust.xml'), '-M', join(dir, 'provider.xml'), '-i', issuer, '-saml11', '-idp']);
  });
}
