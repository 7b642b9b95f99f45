import { BadRequestError } from '../../common/errors/app-error.js';

/**
 * A logo_uri that gave no usable logo: a 400 naming the field, like any other refused merchant setting.
 * The admin sees why (status, size, type, dimensions); a connection that failed, was refused (a private
 * address) or timed out reads the same, so the admin API tells nothing about which internal addresses answer.
 * The full reason is in `detail` (logs only).
 */
export class MerchantLogoError extends BadRequestError {
  constructor(reason: string, detail?: string) {
    super(`logo_uri: ${reason}`, { logo_uri: [reason] }, detail);
  }
}
