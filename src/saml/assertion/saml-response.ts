import { randomBytes } from 'node:crypto';
import {
  AUTH_METHOD_HARDWARE_TOKEN,
  AUTH_METHOD_UNSPECIFIED,
  CONFIRMATION_ARTIFACT,
  CONFIRMATION_BEARER,
  NAMEID_UNSPECIFIED,
  SAML_NS,
  SHIBBOLETH_ATTRIBUTE_NAMESPACE,
} from './saml-names.js';
import { element, textElement } from './xml.js';

/** How long an assertion may be used: the POST profile wants it short (the browser carries it at once). */
export const ASSERTION_VALIDITY_SECONDS = 300;

export interface AssertionInput {
  /** Our entity ID (the metadata's); the assertion's Issuer and the NameIdentifier's qualifier. */
  issuer: string;
  /** The merchant's entity ID: the only audience. */
  audience: string;
  /** The merchant's subject for the person (public or pairwise, as for OIDC). */
  subject: string;
  /** RFC 8176 methods of the login; a chip that proved its key makes it a hardware token. */
  amr: readonly string[];
  authTime: Date;
  /** SAML attribute name -> value (spec 2.1 second column), already released by scope. */
  attributes: Readonly<Record<string, string>>;
  /** Browser/POST (bearer) or Browser/Artifact (artifact) confirmation. */
  confirmation: 'bearer' | 'artifact';
  now: Date;
}

/** XML IDs must start with a letter or `_` (they are NCNames); 128 random bits. */
export function newSamlId(): string {
  return `_${randomBytes(16).toString('hex')}`;
}

/** xsd:dateTime in UTC, whole seconds (what every SAML 1.1 SP parses). */
export function samlInstant(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * The unsigned `saml:Assertion` (SAML 1.1, cs-sstc-schema-assertion-1.1): conditions with the audience and a
 * short validity, an AuthenticationStatement and, when anything is released, an AttributeStatement, both
 * about the same subject. The signature is appended by the signer (its place is the assertion's last child).
 */
export function buildAssertion(input: AssertionInput): { id: string; xml: string } {
  const id = newSamlId();
  const now = samlInstant(input.now);
  const subject = () =>
    element(
      'saml:Subject',
      {},
      textElement('saml:NameIdentifier', { Format: NAMEID_UNSPECIFIED, NameQualifier: input.issuer }, input.subject),
      element(
        'saml:SubjectConfirmation',
        {},
        textElement('saml:ConfirmationMethod', {}, input.confirmation === 'artifact' ? CONFIRMATION_ARTIFACT : CONFIRMATION_BEARER),
      ),
    );
  const attributes = Object.entries(input.attributes).map(([name, value]) =>
    element('saml:Attribute', { AttributeName: name, AttributeNamespace: SHIBBOLETH_ATTRIBUTE_NAMESPACE }, textElement('saml:AttributeValue', {}, value)),
  );
  const xml = element(
    'saml:Assertion',
    {
      'xmlns:saml': SAML_NS.assertion,
      AssertionID: id,
      IssueInstant: now,
      Issuer: input.issuer,
      MajorVersion: '1',
      MinorVersion: '1',
    },
    element(
      'saml:Conditions',
      { NotBefore: now, NotOnOrAfter: samlInstant(new Date(input.now.getTime() + ASSERTION_VALIDITY_SECONDS * 1000)) },
      element('saml:AudienceRestrictionCondition', {}, textElement('saml:Audience', {}, input.audience)),
    ),
    element(
      'saml:AuthenticationStatement',
      { AuthenticationInstant: samlInstant(input.authTime), AuthenticationMethod: authenticationMethod(input.amr) },
      subject(),
    ),
    ...(attributes.length ? [element('saml:AttributeStatement', {}, subject(), ...attributes)] : []),
  );
  return { id, xml };
}

/** SAML 1.1 has no method for "chip and face"; a chip that proved its key (`hwk`) is a hardware token. */
function authenticationMethod(amr: readonly string[]): string {
  return amr.includes('hwk') ? AUTH_METHOD_HARDWARE_TOKEN : AUTH_METHOD_UNSPECIFIED;
}

export type SamlStatus = 'Success' | 'Responder' | 'Requester';

/**
 * The unsigned `samlp:Response` around signed assertions (or none, for a failure). `Recipient` is the exact URL
 * the response is delivered to; the signer puts the response's own signature first, as the schema orders it.
 */
export function buildResponse(input: {
  recipient?: string;
  inResponseTo?: string;
  status: SamlStatus;
  /** A second-level code under Responder/Requester, e.g. RequestDenied (the user cancelled). */
  subStatus?: 'RequestDenied';
  statusMessage?: string;
  signedAssertions: string[];
  now: Date;
}): { id: string; xml: string } {
  const id = newSamlId();
  const sub = input.subStatus ? [element('samlp:StatusCode', { Value: `samlp:${input.subStatus}` })] : [];
  const xml = element(
    'samlp:Response',
    {
      'xmlns:samlp': SAML_NS.protocol,
      IssueInstant: samlInstant(input.now),
      MajorVersion: '1',
      MinorVersion: '1',
      ...(input.inResponseTo ? { InResponseTo: input.inResponseTo } : {}),
      Recipient: input.recipient,
      ResponseID: id,
    },
    element(
      'samlp:Status',
      {},
      element('samlp:StatusCode', { Value: `samlp:${input.status}` }, ...sub),
      ...(input.statusMessage ? [textElement('samlp:StatusMessage', {}, input.statusMessage)] : []),
    ),
    ...input.signedAssertions,
  );
  return { id, xml };
}
