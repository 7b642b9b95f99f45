import { Injectable } from '@nestjs/common';
import { logger } from '../../common/logging/logger.js';
import { MerchantsService } from '../../merchants/merchants.service.js';
import { parseBasicCredentials } from '../../common/http/basic-credentials.js';
import { SAML_NS } from '../assertion/saml-names.js';
import { buildResponse } from '../assertion/saml-response.js';
import { signResponse } from '../assertion/saml-signer.js';
import { element, textElement } from '../assertion/xml.js';
import { SamlKeysService } from '../keys/saml-keys.service.js';
import { samlInvalidClient, samlUnsupportedMediaType } from '../saml.errors.js';
import { SamlArtifactsService } from './saml-artifacts.service.js';
import { parseArtifactRequest } from './soap-request.js';

/** The same words for every refused artifact: which reason it was is for our logs, not for the asker. */
const REFUSED = 'the artifact is unknown, expired, already resolved or not issued to this merchant';

/**
 * The Browser/Artifact back-channel (SAML 1.1 bindings §3.1, SOAP over HTTP): a merchant authenticated with
 * HTTP Basic (its client_id and secret, checked in constant time) sends a samlp:Request for an artifact and
 * gets a signed samlp:Response (InResponseTo = its RequestID) with the assertion, once. A refused artifact is
 * answered as SAML does, a signed Response with Requester/RequestDenied and no assertion.
 */
@Injectable()
export class ArtifactResolutionService {
  constructor(
    private readonly merchants: MerchantsService,
    private readonly artifacts: SamlArtifactsService,
    private readonly keys: SamlKeysService,
  ) {}

  async resolve(authorization: string | undefined, body: unknown): Promise<string> {
    const clientId = await this.authenticate(authorization);
    if (typeof body !== 'string') throw samlUnsupportedMediaType();
    const request = parseArtifactRequest(body);
    const outcome = await this.artifacts.resolve(request.artifact, clientId);
    const now = new Date();
    if ('refused' in outcome) {
      logger.warn({ client_id: clientId, reason: outcome.refused, request_id_saml: request.requestId }, 'saml artifact refused');
      const refusal = buildResponse({ inResponseTo: request.requestId, status: 'Requester', subStatus: 'RequestDenied', statusMessage: REFUSED, signedAssertions: [], now });
      return soapEnvelope(signResponse(refusal.xml, await this.keys.signingKey()));
    }
    const response = buildResponse({ inResponseTo: request.requestId, status: 'Success', signedAssertions: [outcome.assertion], now });
    return soapEnvelope(signResponse(response.xml, await this.keys.signingKey()));
  }

  /**
   * HTTP Basic with the credentials of an enabled SAML merchant. (TLS client authentication with the
   * registered certificate would need the TLS connection to end here or a proxy vouching for the certificate:
   * see the README.) Unknown merchants cost the same secret comparison as known ones.
   */
  private async authenticate(authorization: string | undefined): Promise<string> {
    const credentials = parseBasicCredentials(authorization);
    if (!credentials || !(await this.merchants.verifySecret(credentials.clientId, credentials.secret))) throw samlInvalidClient();
    const merchant = await this.merchants.findEnabled(credentials.clientId);
    if (!merchant?.saml) throw samlInvalidClient();
    return merchant.clientId;
  }
}

/** A SOAP 1.1 envelope around one body element (our own, already signed, XML). */
export function soapEnvelope(bodyXml: string): string {
  return '<?xml version="1.0" encoding="UTF-8"?>\n' + element('soap:Envelope', { 'xmlns:soap': SAML_NS.soap }, element('soap:Body', {}, bodyXml));
}

/** SOAP 1.1 §4.4: a Client fault, our error code first in faultstring. */
export function soapFault(code: string, description: string): string {
  return soapEnvelope(
    element('soap:Fault', {}, textElement('faultcode', {}, 'soap:Client'), textElement('faultstring', {}, `${code}: ${description}`)),
  );
}
