import { createHmac } from 'node:crypto';

const TX_CODE_LENGTH = 6;
const TX_CODE_MODULUS = 10n ** BigInt(TX_CODE_LENGTH);

/** What an offer shows the person: the link's handle, the transaction code and the revocation link's handle. */
export interface OfferValues {
  offerHandle: string;
  txCode: string;
  revocationHandle: string;
}

/**
 * An offer's values, derived from its issuance's random id under a key of the service (HMAC-SHA256, one label each):
 * the database keeps only their hashes, yet the same live offer can be shown a second time (the broker page after the
 * app's result screen) by deriving them again. Without the key, neither the id nor the hashes give them.
 * The handles are 32 bytes, base64url (43 characters); the transaction code six digits (the modulus bias of a 64-bit
 * value reduced to 10^6 is below 10^-13).
 */
export function offerValues(key: string, issuanceId: string): OfferValues {
  const mac = (label: string) => createHmac('sha256', key).update(`${label}:${issuanceId}`).digest();
  return {
    offerHandle: mac('vci-offer-handle').toString('base64url'),
    txCode: String(mac('vci-tx-code').readBigUInt64BE() % TX_CODE_MODULUS).padStart(TX_CODE_LENGTH, '0'),
    revocationHandle: mac('vci-revocation-handle').toString('base64url'),
  };
}
