import type { X509Certificate } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { logger } from '../../common/logging/logger.js';
import { MerchantsService } from '../../merchants/merchants.service.js';
import { parseBasicCredentials } from '../../common/http/basic-credentials.js';
import { isRegisteredCertificate } from '../../common/http/forwarded-client-certificate.js';
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
 * HTTP Basic (its client_id and secret, checked in constant time) or with its registered TLS client
 * certificate (passed on by a trusted proxy, see common/http/forwarded-client-certificate.ts) sends a samlp:Request for an artifact and
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

  async resolve(requester: ArtifactRequester, body: unknown): Promise<string> {
    const basic = parseBasicCredentials(requester.authorization);
    if (!basic && requester.forwardedCertificate === undefined) throw samlInvalidClient();
    // HTTP Basic authenticates before the body is read; a certificate names no merchant, the artifact does.
    const basicClientId = basic ? await this.authenticateBasic(basic) : undefined;
    if (typeof body !== 'string') throw samlUnsupportedMediaType();
    const request = parseArtifactRequest(body);
    const now = new Date();
    const clientId = basicClientId ?? (await this.certificateOwner(requester.forwardedCertificate, request.artifact, now));
    const outcome = 'refused' in clientId ? clientId : await this.artifacts.resolve(request.artifact, clientId.clientId);
    if ('refused' in outcome) {
      const who = 'refused' in clientId ? {} : { client_id: clientId.clientId };
      logger.warn({ ...who, reason: outcome.refused, request_id_saml: request.requestId }, 'saml artifact refused');
      const refusal = buildResponse({
        inResponseTo: request.requestId,
        status: 'Requester',
        subStatus: 'RequestDenied',
        statusMessage: REFUSED,
        signedAssertions: [],
        now,
      });
      return soapEnvelope(signResponse(refusal.xml, await this.keys.signingKey()));
    }
    const response = buildResponse({ inResponseTo: request.requestId, status: 'Success', signedAssertions: [outcome.assertion], now });
    return soapEnvelope(signResponse(response.xml, await this.keys.signingKey()));
  }

  /** HTTP Basic with the credentials of an enabled SAML merchant. Unknown merchants cost the same secret comparison as known ones. */
  private async authenticateBasic(credentials: { clientId: string; secret: string }): Promise<{ clientId: string }> {
    if (!(await this.merchants.verifySecret(credentials.clientId, credentials.secret))) throw samlInvalidClient();
    const merchant = await this.merchants.findEnabled(credentials.clientId);
    if (!merchant?.saml) throw samlInvalidClient();
    return { clientId: merchant.clientId };
  }

  /**
   * TLS client authentication through the trusted proxy: the merchant the artifact was issued to, when the
   * certificate the proxy verified is the one registered for it (saml.certificate). Any other certificate is
   * answered as a refused artifact (the asker learns nothing of whose it is); no certificate (none, or an unreadable
   * header) as 401.
   */
  private async certificateOwner(
    certificate: X509Certificate | undefined,
    artifact: string,
    now: Date,
  ): Promise<{ clientId: string } | { refused: 'certificate_not_registered' }> {
    if (!certificate) throw samlInvalidClient();
    const owner = await this.artifacts.ownerOf(artifact);
    const merchant = owner ? await this.merchants.findEnabled(owner) : undefined;
    if (!merchant?.saml || !isRegisteredCertificate(certificate, merchant.saml.certificate, now)) return { refused: 'certificate_not_registered' };
    return { clientId: merchant.clientId };
  }
}

/** How the asker of an artifact resolution authenticates: HTTP Basic, or a certificate a trusted proxy passed on. */
export interface ArtifactRequester {
  authorization?: string;
  /** The certificate in the proxy's header, only when the connection came from a trusted proxy. */
  forwardedCertificate?: X509Certificate;
}

/** A SOAP 1.1 envelope around one body element (our own, already signed, XML). */
export function soapEnvelope(bodyXml: string): string {
  return '<?xml version="1.0" encoding="UTF-8"?>\n' + element('soap:Envelope', { 'xmlns:soap': SAML_NS.soap }, element('soap:Body', {}, bodyXml));
}

/** SOAP 1.1 §4.4: a Client fault, our error code first in faultstring. */
export function soapFault(code: string, description: string): string {
  return soapEnvelope(element('soap:Fault', {}, textElement('faultcode', {}, 'soap:Client'), textElement('faultstring', {}, `${code}: ${description}`)));
}
