import { buildAssertion, buildResponse } from '../../src/saml/assertion/saml-response.js';
import { signAssertion, signResponse } from '../../src/saml/assertion/saml-signer.js';
import { newKeyAndCertificate, type KeyAndCertificate } from '../../src/common/keys/self-signed.js';
import { itWithTool, samlsignVerify, validateSchema, xmlsecVerify } from './saml-tools.js';

describe('SAML 1.1 assertion and Browser/POST response, checked by the peer tools', () => {
  let key: KeyAndCertificate;
  let other: KeyAndCertificate;
  let response: string;
  let assertionId: string;
  const now = new Date();

  beforeAll(async () => {
    key = await newKeyAndCertificate('CN=broker test');
    other = await newKeyAndCertificate('CN=someone else');
    const assertion = buildAssertion({
      issuer: 'https://broker.example/saml',
      audience: 'https://shop.example/shibboleth',
      subject: 'subject-1',
      amr: ['sc', 'hwk', 'face'],
      authTime: new Date(now.getTime() - 5000),
      attributes: { documenttype: 'P', fullname: 'Anna <Maria> & "Ö"', AUTHENTICATION_SOURCES: 'SDK_NFC,SDK_FACESCAN' },
      confirmation: 'bearer',
      now,
    });
    assertionId = assertion.id;
    const unsigned = buildResponse({ recipient: 'https://shop.example/acs', status: 'Success', signedAssertions: [signAssertion(assertion.xml, key)], now });
    response = signResponse(unsigned.xml, key);
  });

  it('has the shape of issue 12 point 3', () => {
    expect(response).toMatch(/^<samlp:Response [^>]*MajorVersion="1" MinorVersion="1" Recipient="https:\/\/shop.example\/acs" ResponseID="_[0-9a-f]{32}"/);
    expect(response).toContain(`AssertionID="${assertionId}"`);
    expect(response).toContain('Issuer="https://broker.example/saml"');
    expect(response).toContain('<saml:Audience>https://shop.example/shibboleth</saml:Audience>');
    expect(response).toContain('AuthenticationMethod="urn:oasis:names:tc:SAML:1.0:am:HardwareToken"');
    expect(response).toContain(
      '<saml:Attribute AttributeName="fullname" AttributeNamespace="urn:mace:shibboleth:1.0:attributeNamespace:uri"><saml:AttributeValue>Anna &lt;Maria&gt; &amp; "Ö"</saml:AttributeValue></saml:Attribute>',
    );
    expect(response).toContain('<ds:SignatureMethod Algorithm="http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"/>');
    expect(response).toContain(`<ds:Reference URI="#${assertionId}">`);
    const notBefore = /NotBefore="([^"]+)" NotOnOrAfter="([^"]+)"/.exec(response)!;
    expect(Date.parse(notBefore[2]) - Date.parse(notBefore[1])).toBe(300_000);
  });

  it('refuses a value XML cannot carry instead of dropping it', () => {
    expect(() =>
      buildAssertion({ issuer: 'urn:i', audience: 'urn:a', subject: 's', amr: [], authTime: now, attributes: { x: 'a\u0001b' }, confirmation: 'bearer', now }),
    ).toThrow(RangeError);
  });

  itWithTool('xmllint', 'validates against the SAML 1.1 protocol schema (opensaml-schemas)', async () => {
    const result = validateSchema(response);
    expect(result).toEqual({ ok: true, output: expect.stringContaining('validates') });
  });

  itWithTool('xmlsec1', 'xmlsec1 accepts both signatures with our certificate, and rejects another key', async () => {
    expect(xmlsecVerify(response, key.certificatePem).ok).toBe(true);
    expect(xmlsecVerify(response, key.certificatePem, 'assertion').ok).toBe(true);
    expect(xmlsecVerify(response, other.certificatePem).ok).toBe(false);
  });

  itWithTool('xmlsec1', 'xmlsec1 rejects the response and the assertion after one attribute value is changed', async () => {
    const tampered = response.replace('<saml:AttributeValue>P</saml:AttributeValue>', '<saml:AttributeValue>D</saml:AttributeValue>');
    expect(tampered).not.toBe(response);
    expect(xmlsecVerify(tampered, key.certificatePem).ok).toBe(false);
    expect(xmlsecVerify(tampered, key.certificatePem, 'assertion').ok).toBe(false);
  });

  itWithTool('samlsign', 'OpenSAML samlsign verifies the response and the assertion, and rejects a changed value', async () => {
    expect(samlsignVerify(response, key.certificatePem)).toMatchObject({ ok: true });
    expect(samlsignVerify(response, key.certificatePem, assertionId)).toMatchObject({ ok: true });
    const tampered = response.replace('SDK_NFC,SDK_FACESCAN', 'SDK_OCR');
    expect(samlsignVerify(tampered, key.certificatePem, assertionId).ok).toBe(false);
  });
});
