import { errors, type KoaContextWithOIDC } from 'oidc-provider';
import { BindingMessageError, parseBindingMessage, parseServiceContext } from '../../broker/spi/request/binding-message.js';

type Validator = (ctx: KoaContextWithOIDC, value: string | undefined) => void;

/**
 * The sealed owner of a login another front door started through the broker core (LoginRequests): only the core's
 * own pushed requests carry it (engine-login-carrier.ts).
 */
export const LOGIN_OWNER_PARAM = 'brokered_login';

/** Whether a sealed owner is the core's, for this merchant (LoginRequests.ownerOf). */
export type LoginOwnerCheck = (sealed: unknown, clientId: string) => boolean;

const onAuthorizationRequests = (ctx: KoaContextWithOIDC) => ctx.oidc.route === 'authorization' || ctx.oidc.route === 'pushed_authorization_request';

const wrapBindingErrors = (fn: () => void) => {
  try {
    fn();
  } catch (e) {
    if (e instanceof BindingMessageError) throw new errors.InvalidRequest(e.message);
    throw e;
  }
};

/**
 * Parameters of spec 4.2 beyond the engine's, and rules the engine does not enforce. They run after the
 * client and redirect URI are verified, so a failure redirects to the merchant (spec 4.2.2).
 */
export const EXTRA_PARAMS: Record<string, Validator> = {
  // Spec 4.2: state is mandatory.
  state: (ctx, value) => {
    if (onAuthorizationRequests(ctx) && !value) throw new errors.InvalidRequest('state is mandatory');
  },
  // Spec 4.2 / 8: a code_challenge is 43 characters (the S256 form).
  code_challenge: (_ctx, value) => {
    if (value !== undefined && !/^[A-Za-z0-9._~-]{43}$/.test(value))
      throw new errors.InvalidRequest('code_challenge must be 43 characters of letters, digits, dot, underscore, tilde or hyphen');
  },
  // Spec 2.9's page language. An unknown value falls back (ui_locales, Accept-Language, the merchant's
  // default): a person should not lose a login over a language tag.
  ui_locale: () => undefined,
  binding_message: (_ctx, value) => {
    if (value !== undefined) wrapBindingErrors(() => parseBindingMessage(value));
  },
  svc_context: (_ctx, value) => {
    if (value !== undefined) wrapBindingErrors(() => parseServiceContext(value));
  },
  // SAML merchant target (spec 4.9): carried through, meaningless for OIDC.
  target: () => undefined,
};

/**
 * The engine's parameters: the spec's, and the owner of a front door's login, which a merchant cannot make: one that
 * is not sealed by the core for this very merchant is refused.
 */
export function extraParams(isOwned: LoginOwnerCheck): Record<string, Validator> {
  return {
    ...EXTRA_PARAMS,
    [LOGIN_OWNER_PARAM]: (ctx, value) => {
      if (value !== undefined && !isOwned(value, String(ctx.oidc.client?.clientId))) throw new errors.InvalidRequest(`${LOGIN_OWNER_PARAM} is not accepted`);
    },
  };
}

/**
 * PKCE where the merchant's policy wants it (PSD2, and the FAPI 2.0 profile: SP §5.3.2.2 "shall require PKCE with S256";
 * the engine knows no other method), except for a login another front door started: no code is ever
 * issued for it (it ends with its owner, LoginRequests), so there is no code for a verifier to protect, and the core
 * makes no challenge of a verifier nobody keeps.
 */
export function pkceRequired(isOwned: LoginOwnerCheck) {
  return (ctx: KoaContextWithOIDC, client: { clientId: string; psd2?: unknown; metadata?(): Record<string, unknown> }): boolean =>
    (client.psd2 === true || client.metadata?.().security_profile === 'fapi2') && !isOwned(ctx.oidc.params?.[LOGIN_OWNER_PARAM], client.clientId);
}
