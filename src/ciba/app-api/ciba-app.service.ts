import { Injectable } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import type { EntityManager } from 'typeorm';
import type { BrokeredIdentity, EidProvider, EidRequest } from '../../broker/spi/eid-provider.js';
import { DocumentEvidence } from '../../broker/spi/document-evidence/document-evidence.js';
import { appDisplayText } from '../../broker/spi/request/app-display-text.js';
import { EidRegistry } from '../../broker/schemes/eid-registry.js';
import { DEFAULT_LOCALE } from '../../i18n/locales.js';
import { messagesFor } from '../../i18n/messages.js';
import { AppBindingsService } from '../bindings/app-bindings.service.js';
import {
  appSecretInvalid,
  appSecretRequired,
  appSuspended,
  longPollUnauthenticated,
  requestNotFound,
  requestNotPending,
  tooManyLongPolls,
  verificationNotDone,
} from '../ciba.errors.js';
import { CibaCompletionService } from '../engine/ciba-completion.service.js';
import { type CibaRequest, CibaRequestsService } from '../requests/ciba-requests.service.js';
import { ProvisioningCodes } from '../requests/provisioning-codes.js';
import { type LongPoller, LongPolls } from './long-polls.js';
import type {
  AppIdentityDto,
  ApprovalStartedDto,
  CompleteRequestDto,
  PendingRequestDto,
  PendingRequestsDto,
  PendingRequestsQueryDto,
  RequestResultDto,
  RequestStateDto,
} from './dto/ciba-app.dto.js';

const LONG_POLL_STEP_MS = 500;
const ALL_KINDS = ['P', 'I', 'D', 'V'];
/** The public id of the customer-test scheme of specimen holders (merchants name it in eid_schemes and login_hint). */
const SPECIMEN_SCHEME_ID = 'test';

/**
 * The phone's side of CIBA: the app long-polls the open requests of its appId (a provisioning only with the
 * one-time code the merchant showed its user, provisioning-codes.ts), shows who asks and what, and
 * approves through a document verification (the verifier's own session flow, started through the eID
 * interface as the broker page starts it) or declines. The verification decides: a provisioning binds the
 * app to the subject it proved; an authentication is approved only when it proves the bound subject.
 */
@Injectable()
export class CibaAppService {
  constructor(
    private readonly requests: CibaRequestsService,
    private readonly bindings: AppBindingsService,
    private readonly completion: CibaCompletionService,
    private readonly registry: EidRegistry,
    private readonly provisioningCodes: ProvisioningCodes,
    private readonly longPolls: LongPolls,
    private readonly evidence: DocumentEvidence,
  ) {}

  /**
   * The app's poll: answered at once, or held up to wait_seconds until a request comes. A poll is held only for an
   * app that proves itself first (401 otherwise, at once) and within what its address may hold (429 beyond); the
   * test page's polls, answered at once, name no poller.
   */
  async pending(dto: PendingRequestsQueryDto, poller?: LongPoller): Promise<PendingRequestsDto> {
    if (!dto.wait_seconds || !poller) return this.visible(dto, 0);
    if (!(await this.provesItself(dto))) throw longPollUnauthenticated();
    const release = this.longPolls.hold(poller);
    if (!release) throw tooManyLongPolls();
    try {
      return await this.visible(dto, dto.wait_seconds * 1000, poller.gone);
    } finally {
      release();
    }
  }

  /** The open requests the app may see, waiting up to `waitMs` for one (no longer once `gone`: nobody would read the answer). */
  private async visible(dto: PendingRequestsQueryDto, waitMs: number, gone?: AbortSignal): Promise<PendingRequestsDto> {
    const appKey = this.bindings.appKey(dto.app_id);
    const deadline = Date.now() + waitMs;
    let after = dto.after ?? '0';
    for (;;) {
      const open = await this.requests.openForApp(appKey, after);
      const visible: CibaRequest[] = [];
      for (const r of open) if (r.details.appId === dto.app_id && (await this.appMayAnswer(r, dto))) visible.push(r);
      if (open.length) after = open[open.length - 1].row.seq;
      if (visible.length || gone?.aborted || Date.now() + LONG_POLL_STEP_MS > deadline) return { requests: visible.map(toDto), cursor: after };
      await sleep(LONG_POLL_STEP_MS, undefined, { signal: gone }).catch(() => undefined);
    }
  }

  /**
   * Whether the app proves itself, as a long poll must before it is held: the secret of a binding of its app id (at
   * any merchant; a binding made without a secret asks none), or the code of one of its open provisionings.
   */
  private async provesItself(dto: AppIdentityDto): Promise<boolean> {
    if (dto.provisioning_code !== undefined) {
      const provisionings = await this.requests.openProvisioningsOf(this.bindings.appKey(dto.app_id));
      if (
        provisionings.some(({ details }) => details.appId === dto.app_id && this.provisioningCodes.matches(dto.provisioning_code, details.provisioningCodeHash))
      )
        return true;
    }
    return this.bindings.boundAppAccepts(dto.app_id, dto.app_secret);
  }

  async status(id: string, dto: AppIdentityDto): Promise<RequestStateDto> {
    const { row } = await this.load(id, dto);
    const open = row.state === 'pending' || row.state === 'verifying';
    return { state: open && row.expiresAt.getTime() <= Date.now() ? 'expired' : row.state };
  }

  /** Starts (or resumes) the document verification that answers the request; the app runs it with the link. */
  async approve(id: string, dto: AppIdentityDto): Promise<ApprovalStartedDto> {
    const request = await this.load(id, dto);
    bindsWithSecret(request, dto);
    if (request.row.state === 'pending') {
      if (!(await this.requests.transition(id, ['pending'], 'verifying', { verificationUid: verificationUid(id) })))
        throw requestNotPending('no longer pending');
    } else if (request.row.state !== 'verifying') throw requestNotPending(request.row.state);
    const step = await this.verifier().start(this.eidRequest(request));
    return { session_link: step.kind === 'waiting' && step.link ? step.link : null };
  }

  /** After the verification: binds (provisioning) and approves, or denies when it did not prove the right person. */
  async complete(id: string, dto: CompleteRequestDto): Promise<RequestResultDto> {
    const request = await this.load(id, dto);
    bindsWithSecret(request, dto);
    if (request.row.state !== 'verifying') throw requestNotPending(request.row.state);
    const step = await this.verifier().handle(this.eidRequest(request), {});
    if (step.kind === 'failed') return this.deny(request, step.description);
    if (step.kind !== 'identified') throw verificationNotDone();
    return this.decide(request, dto, this.evidence.schemeId, step.identity);
  }

  /**
   * customer-test: answers a request with the identity the test eID gives for a specimen holder (the CIBA test
   * page), as if the app had verified that person's document. The same rules decide as for the app.
   */
  async completeWithTestIdentity(id: string, dto: AppIdentityDto, person: string): Promise<RequestResultDto> {
    const request = await this.load(id, dto);
    if (request.row.state !== 'pending' && request.row.state !== 'verifying') throw requestNotPending(request.row.state);
    const scheme = this.registry.get(SPECIMEN_SCHEME_ID);
    if (!scheme?.testOnly) throw requestNotFound();
    const step = await scheme.handle(this.eidRequest(request), { person });
    if (step.kind !== 'identified') throw verificationNotDone();
    return this.decide(request, dto, SPECIMEN_SCHEME_ID, step.identity);
  }

  private async decide(request: CibaRequest, dto: CompleteRequestDto, scheme: string, identity: BrokeredIdentity): Promise<RequestResultDto> {
    if (identity.claims.authentication_result !== 'pass') return this.deny(request, 'the document verification failed');
    const { details, row } = request;
    if (row.kind === 'authentication' && identity.subject !== details.subject)
      return this.deny(request, 'the document verified is not the one this app is bound to');
    // A provisioning binds the app in the same transaction that approves the request.
    const bind =
      row.kind === 'provisioning'
        ? (manager: EntityManager) =>
            this.bindings.bind(
              row.clientId,
              details.appId,
              identity.subject,
              details.userStatus ?? 'active',
              { appSecret: dto.app_secret, userCode: dto.user_code },
              manager,
            )
        : undefined;
    await this.completion.approve(request, scheme, identity, bind);
    return { state: 'approved' };
  }

  async decline(id: string, dto: AppIdentityDto): Promise<RequestResultDto> {
    return this.deny(await this.load(id, dto), 'the user declined');
  }

  private async deny(request: CibaRequest, reason: string): Promise<RequestResultDto> {
    await this.completion.deny(request, reason);
    return { state: 'denied', reason };
  }

  /**
   * A request of this app, answerable by it (an unknown or foreign one is not found, nor is a provisioning
   * without its code: whether one exists for an app id is not told).
   */
  private async load(id: string, dto: AppIdentityDto): Promise<CibaRequest> {
    const request = await this.requests.get(id);
    if (!request || request.details.appId !== dto.app_id) throw requestNotFound();
    const verdict = await this.appVerdict(request, dto);
    if (verdict === 'not_found') throw requestNotFound();
    if (verdict === 'suspended') throw appSuspended();
    if (verdict !== 'ok') throw appSecretInvalid();
    return request;
  }

  private async appMayAnswer(request: CibaRequest, dto: AppIdentityDto): Promise<boolean> {
    return (await this.appVerdict(request, dto)) === 'ok';
  }

  /**
   * Provisioning goes to the app that presents the request's one-time code (the merchant showed it to its user;
   * the appId alone is not enough); authentication only to the app instance that was bound, and only while its
   * binding is active (an operator may suspend it while a request is open).
   */
  private async appVerdict({ row, details }: CibaRequest, dto: AppIdentityDto): Promise<'ok' | 'not_found' | 'secret' | 'suspended'> {
    if (row.kind === 'provisioning') return this.provisioningCodes.matches(dto.provisioning_code, details.provisioningCodeHash) ? 'ok' : 'not_found';
    const binding = await this.bindings.find(row.clientId, details.appId);
    if (!binding || !(await this.bindings.appSecretAccepted(binding, dto.app_secret))) return 'secret';
    return binding.status === 'active' ? 'ok' : 'suspended';
  }

  private verifier(): EidProvider {
    const scheme = this.registry.get(this.evidence.schemeId);
    if (!scheme) throw new Error('the document verifier is not registered');
    return scheme;
  }

  private eidRequest({ row, details }: CibaRequest): EidRequest {
    return {
      interactionUid: verificationUid(row.id),
      clientId: row.clientId,
      merchantName: details.merchantName,
      locale: DEFAULT_LOCALE,
      messages: messagesFor(DEFAULT_LOCALE),
      scopes: details.scopes,
      acrValues: details.acrValues,
      bindingMessage: details.binding,
    };
  }
}

const verificationUid = (id: string) => `ciba:${id}`;

/**
 * The app that answers a provisioning becomes the bound install, and a binding without a secret would be answerable
 * by anyone who knows the app id (an identifier, not a secret): the app must present its own secret, checked
 * before the person spends a verification on it. (The customer-test page binds specimen holders without one.)
 */
function bindsWithSecret({ row }: CibaRequest, dto: AppIdentityDto): void {
  if (row.kind === 'provisioning' && !dto.app_secret) throw appSecretRequired();
}

/** The binding and transaction texts as data for the app: never HTML (app-display-text.ts); markdown keeps its syntax. */
function toDto({ row, details }: CibaRequest): PendingRequestDto {
  const { binding } = details;
  const text = binding.transactionText;
  return {
    id: row.id,
    kind: row.kind,
    state: row.state,
    merchant_name: details.merchantName,
    ...(binding.text ? { binding_message: appDisplayText(binding.text) } : {}),
    ...(text ? { transaction_text: { type: text.type, content: appDisplayText(text.content, text.type) } } : {}),
    document_kinds: binding.documentKinds ?? ALL_KINDS,
    expires_at: row.expiresAt.toISOString(),
  };
}
