import { logoPath } from './merchant-logos.service.js';

/** A merchant's logo as a page shows it: from our origin, its alt text the merchant's name (what the logo says). */
export interface PageLogo {
  src: string;
  alt: string;
}

export function pageLogoOf(merchant: { name: string; logoSha256?: string | null }): PageLogo | undefined {
  return merchant.logoSha256 ? { src: logoPath(merchant.logoSha256), alt: merchant.name } : undefined;
}
