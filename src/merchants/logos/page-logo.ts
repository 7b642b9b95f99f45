import type { PageLogo } from '../../common/pages/page-logo.js';
import { logoPath } from './merchant-logos.service.js';

/** A merchant's logo as our pages show it: from our origin, its alt text the merchant's name (what the logo says). */
export function pageLogoOf(merchant: { name: string; logoSha256?: string | null }): PageLogo | undefined {
  return merchant.logoSha256 ? { src: logoPath(merchant.logoSha256), alt: merchant.name } : undefined;
}
