import { errors, type KoaContextWithOIDC } from 'oidc-provider';
import type { BindingMessage } from '../../broker/spi/request/binding-message.js';
import { isFapi2Client } from '../../oidc/provider/fapi-profile.js';

/**
 * The FAPI-CIBA profile's authorization server rules (read with the FAPI 2.0 Security Profile) that the engine does not
 * enforce by itself, for a fapi2 merchant's backchannel requests. The rest holds already: confidential clients only,
 * private_key_jwt or mTLS with the issuer as the assertion's only audience, ES256/PS256 signed requests whose nbf and
 * exp are at most 60 min apart, poll and ping with sender-constrained tokens; push is refused at registration
 * (src/merchants/fapi2-policy.ts).
 */
type Client = KoaContextWithOIDC['oidc']['client'];

/**
 * "shall ensure unique authorization context exists in the authentication request or require a binding_message": a
 * CIBA request names an app and scopes, never a unique transaction, so a fapi2 merchant must send a binding_message the
 * person is shown (its text or transaction text) to compare with the one on the consumption device. A cancellation
 * (spec 4.7 `operation`) starts no authentication and needs none.
 */
export function assertFapiCibaBinding(client: Client, binding: BindingMessage, sent: boolean): void {
  if (!isFapi2Client(client) || binding.operation === 'cancel') return;
  if (!sent) throw new errors.InvalidRequest('binding_message is required of a fapi2 merchant (FAPI-CIBA): the text the person compares on both devices');
  if (!binding.text && !binding.transactionText)
    throw new errors.InvalidBindingMessage('the binding_message of a fapi2 merchant must carry text shown to the person (bindingMessage or transactiontext)');
}

/**
 * A login_hint_token is signed with the client secret (HS256): a fapi2 merchant authenticates by key or certificate
 * only and FAPI 2.0 SP 5.4.1 allows PS256 and ES256, so it names the person by login_hint or id_token_hint instead.
 */
export function assertFapiCibaHintToken(client: Client): void {
  if (isFapi2Client(client))
    throw new errors.InvalidRequest('login_hint_token (HS256 with the client secret) is not available to fapi2 merchants: use login_hint or id_token_hint');
}
