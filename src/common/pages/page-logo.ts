/** A logo as a page shows it: served from our origin, with its alt text (what the logo says). */
export interface PageLogo {
  src: string;
  alt: string;
}
