import { html, SafeHtml } from '../../../common/html/escape.js';
import { htmlLang, type UiLocale } from '../../../i18n/locales.js';

const STYLE = `
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;background:#f4f5f7;color:#1d2330}
main{max-width:32rem;margin:3rem auto;background:#fff;border-radius:12px;padding:2rem;box-shadow:0 1px 4px rgba(0,0,0,.08)}
h1{font-size:1.4rem;margin-top:0}
form.choice{margin:.6rem 0}
form.choice button{width:100%;text-align:left;padding:.9rem 1rem;border:1px solid #c9ced8;border-radius:8px;background:#fff;font-size:1rem;cursor:pointer}
form.choice button:hover{border-color:#3056d3}
.detail{display:block;color:#5b6475;font-size:.85rem;margin-top:.2rem}
.context{background:#eef2ff;border-radius:8px;padding:.8rem 1rem;margin-bottom:1rem;white-space:pre-wrap;word-break:break-word}
.cancel button{background:none;border:none;color:#3056d3;cursor:pointer;padding:0;margin-top:1rem;font-size:.95rem}
.ref{color:#8a92a3;font-size:.8rem}
a{word-break:break-all}
.qr svg{display:block;max-width:100%}
`;

/** The one page frame of the broker's HTML: no scripts, styles inline (CSP allows inline styles only). */
export function layout(locale: UiLocale, title: string, body: SafeHtml): string {
  return html`<!DOCTYPE html>
<html lang="${htmlLang(locale)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title}</title>
<style>${new SafeHtml(STYLE)}</style>
</head>
<body><main>${body}</main></body>
</html>`.html;
}
