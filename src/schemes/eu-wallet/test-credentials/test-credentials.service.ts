import { Inject, Injectable } from '@nestjs/common';
import { createPublicKey, randomInt } from 'node:crypto';
import type { JWK } from 'jose';
import {
  createStatusList,
  fullDate,
  issueSdJwtVc,
  issueTestMdoc,
  MDL_DOCTYPE,
  MDL_NAMESPACE,
  PID_MDOC_DOCTYPE,
  SPECIMEN_PID_CLAIMS,
} from '@identity-broker/eu-wallet';
import { BadRequestError, NotFoundError } from '../../../common/errors/app-error.js';
import { APP_CONFIG, type AppConfig } from '../../../config/load-config.js';
import { WalletTestAuthoritiesService } from '../trust/wallet-test-authorities.service.js';
import { WALLET_PATHS } from '../wallet-paths.js';
import type { HolderKeyDto, TestCredentialDto, TestCredentialKind } from './test-credentials.dto.js';

/** The test status list's length: indexes are drawn at random, all valid. */
const STATUS_LIST_SIZE = 1024;

/** The specimen people of the test credentials (customer-test's specimen state UT, ICAO's Utopia). */
const PID_MDOC_VALUES = {
  family_name: 'Mustermann',
  given_name: 'Erika',
  birth_date: fullDate('1984-01-26'),
  nationality: ['DE'],
  age_over_18: true,
  age_over_21: true,
  issuing_country: 'UT',
  issuing_authority: 'Customer-test PID Provider',
};
const MDL_VALUES = {
  family_name: 'Mustermann',
  given_name: 'Erika',
  birth_date: fullDate('1984-01-26'),
  issuing_country: 'UT',
  issuing_authority: 'Customer-test mDL Authority',
  document_number: 'UT0000001',
  age_over_18: true,
  age_over_21: true,
  issue_date: fullDate('2024-01-01'),
  expiry_date: fullDate('2034-01-01'),
};

/**
 * customer-test only: test credentials for a wallet, issued by this environment's test PID provider and test IACA
 * (which only customer-test trusts), bound to the wallet's key; and the test status list the SD-JWT VC PIDs point to.
 * What `npm run test-wallet` and a merchant's own tests hold. Production answers 404.
 */
@Injectable()
export class WalletTestCredentialsService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly authorities: WalletTestAuthoritiesService,
  ) {}

  async issue(kind: TestCredentialKind, holder: HolderKeyDto): Promise<TestCredentialDto> {
    if (this.config.isProduction) throw onlyInTest();
    const jwk = { kty: holder.kty, crv: holder.crv, x: holder.x, y: holder.y };
    let holderKey;
    try {
      holderKey = createPublicKey({ key: jwk, format: 'jwk' });
    } catch {
      throw new BadRequestError('holder_key is not a point on P-256');
    }
    const { pidProvider, iaca, requestSigner } = await this.authorities.get();
    const root = Buffer.from(requestSigner.root).toString('base64');
    if (kind === 'pid_sd_jwt') {
      const credential = await issueSdJwtVc({
        signer: pidProvider,
        holderKey,
        claims: { ...SPECIMEN_PID_CLAIMS, issuing_authority: 'Customer-test PID Provider' },
        status: { uri: this.statusListUri(), idx: randomInt(STATUS_LIST_SIZE) },
      });
      return { kind, format: 'dc+sd-jwt', credential, request_signer_root: root };
    }
    const mdl = kind === 'mdl';
    const mdoc = await issueTestMdoc({
      docType: mdl ? MDL_DOCTYPE : PID_MDOC_DOCTYPE,
      namespaces: mdl ? { [MDL_NAMESPACE]: MDL_VALUES } : { [PID_MDOC_DOCTYPE]: PID_MDOC_VALUES },
      signer: mdl ? iaca : pidProvider,
      deviceKey: jwk as JWK,
    });
    return { kind, format: 'mso_mdoc', credential: Buffer.from(mdoc).toString('base64url'), request_signer_root: root };
  }

  /** The status list token of the test PIDs: every entry valid, signed by the test PID provider. */
  async statusList(): Promise<string> {
    if (this.config.isProduction) throw onlyInTest();
    const { pidProvider } = await this.authorities.get();
    return createStatusList({ signer: pidProvider, uri: this.statusListUri(), bits: 2, values: new Array<number>(STATUS_LIST_SIZE).fill(0), ttl: 300 });
  }

  private statusListUri(): string {
    return `${this.config.baseUrl}${WALLET_PATHS.testStatusList}`;
  }
}

const onlyInTest = () => new NotFoundError('test credentials exist only in customer-test');
