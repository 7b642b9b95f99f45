/** The service's icon (an ID card), served from our origin (FAVICON_PATH, /favicon.ico) so no page makes an external request. */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
<rect x="2" y="6" width="28" height="20" rx="3" fill="#2848b8"/>
<circle cx="11" cy="14" r="3.5" fill="#fff"/>
<path d="M5.5 22c1-3.2 3-4.5 5.5-4.5s4.5 1.3 5.5 4.5z" fill="#fff"/>
<rect x="19" y="11" width="8" height="2" rx="1" fill="#fff"/>
<rect x="19" y="16" width="6" height="2" rx="1" fill="#fff"/>
</svg>
`;
