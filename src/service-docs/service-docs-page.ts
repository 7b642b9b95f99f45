import { html, SafeHtml } from '../common/html/escape.js';
import { documentHead } from '../common/pages/layout.js';
import type { EidasHighSetting, MatchLevelsReport, MatchLevelStatus } from '../broker/spi/document-evidence/match-levels.js';

export interface ServiceDocsLinks {
  discovery: string;
  jwks: string;
  adminDocs: string;
  matchLevelsJson: string;
}

// A table wider than a phone scrolls in its own box (focusable, so keys scroll it too); shadows at the edges that
// have more columns, drawn by backgrounds that scroll with the content (local) over ones that stay (scroll).
const STYLE = `
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;background:#f4f5f7;color:#1d2330;line-height:1.45}
main{max-width:56rem;margin:2rem auto;background:#fff;border-radius:12px;padding:1.5rem 2rem;box-shadow:0 1px 4px rgba(0,0,0,.08)}
@media (max-width:34rem){main{margin:1rem .5rem;padding:1rem}}
h1{font-size:1.5rem}h2{font-size:1.15rem;margin-top:2rem}
table{border-collapse:collapse;width:100%;font-size:.9rem}
th,td{border-bottom:1px solid #dde1e8;padding:.35rem .5rem;text-align:right}
th:first-child,td:first-child,td.status,th.status{text-align:left}
.validated{color:#1b6e3a;font-weight:600}.extrapolated{color:#9a5b00;font-weight:600}
.table{overflow-x:auto;background:linear-gradient(to right,#fff 30%,rgba(255,255,255,0)) left/2.5rem 100% no-repeat local,linear-gradient(to left,#fff 30%,rgba(255,255,255,0)) right/2.5rem 100% no-repeat local,radial-gradient(farthest-side at 0 50%,rgba(0,0,0,.25),rgba(0,0,0,0)) left/1rem 100% no-repeat scroll,radial-gradient(farthest-side at 100% 50%,rgba(0,0,0,.25),rgba(0,0,0,0)) right/1rem 100% no-repeat scroll}
.table:focus-visible{outline:3px solid #2848b8;outline-offset:2px}
.scroll-hint{display:none;color:#4f5869;font-size:.85rem;margin:.2rem 0}
@media (max-width:40rem){.scroll-hint{display:block}}
a{overflow-wrap:anywhere}
`;

const percent = (v: number | undefined) => (v === undefined ? '–' : `${(v * 100).toFixed(v < 0.01 && v > 0 ? 2 : 1)}%`);
const oneIn = (far: number) => `1 in ${Math.round(1 / far).toLocaleString('en-GB')}`;

function levelRow(l: MatchLevelStatus): SafeHtml {
  const measured = l.falseAccepts === undefined ? '–' : `${l.falseAccepts} of ${l.impostorPairs}`;
  const frr = l.falseRejects === undefined ? '–' : `${percent(l.measuredFrr)} (${l.falseRejects} of ${l.genuinePairs})`;
  return html`<tr><td>${l.level}</td><td>${oneIn(l.targetFar)}</td><td>${l.threshold}</td>
<td class="status ${l.status}">${l.status}</td><td>${measured}</td><td>${frr}${l.frrBelowTarget === false ? ' ⚠' : ''}</td></tr>`;
}

/**
 * The discovery document's service_documentation page: where to start, and what each face match level of
 * spec 2.2 is worth with the engine this instance runs, read from its calibration table at request time.
 */
export function serviceDocsPage(report: MatchLevelsReport, setting: EidasHighSetting, links: ServiceDocsLinks): string {
  const validated = report.levels.filter((l) => l.status === 'validated').map((l) => l.level);
  const extrapolated = report.levels.filter((l) => l.status === 'extrapolated').map((l) => l.level);
  const c = report.calibratedOn;
  return html`<!DOCTYPE html>
<html lang="en">
<head>
${documentHead('Identity broker: service documentation')}
<style>${new SafeHtml(STYLE)}</style>
</head>
<body><main>
<h1>Identity broker: service documentation</h1>
<h2>Start here</h2>
<ul>
<li>OpenID Connect discovery: <a href="${links.discovery}">${links.discovery}</a> (endpoints, scopes, claims, algorithms)</li>
<li>Signing keys: <a href="${links.jwks}">${links.jwks}</a></li>
<li>Admin API (merchant registration), with examples: <a href="${links.adminDocs}">${links.adminDocs}</a></li>
</ul>
<h2 id="face-match-levels">Face match levels (spec 2.2)</h2>
<p>The document verifier compares the chip photo with the live selfie and reports <code>facematch_level</code> 0–9.
This instance runs the engine <code>${report.engine}</code> (${report.metric}), calibrated on ${c.genuinePairs} genuine and
${c.impostorPairs} impostor pairs (${c.images} images of ${c.identities} people, ${c.date}).</p>
<p><strong>Validated by our data: level ${validated.join(', ') || 'none'}.</strong> For these levels the calibration pairs alone bound the
false acceptance rate under the target (95% one-sided).
<strong>Extrapolated: level ${extrapolated.join(', ') || 'none'}.</strong> ${impostorNote(report)}
Spec 2.2 also asks a false rejection rate under ${percent(report.targetFrr)} at every level; ⚠ marks levels where this engine
rejects more genuine pairs than that.</p>
<p class="scroll-hint" id="levels-scroll">The table is wider than the screen: scroll it sideways (the shadow marks more columns).</p>
<div class="table" tabindex="0" role="region" aria-label="Face match levels" aria-describedby="levels-scroll"><table>
<thead><tr><th>Level</th><th>Target FAR</th><th>Threshold</th><th class="status">Status</th><th>False accepts measured</th><th>False rejects measured</th></tr></thead>
<tbody>${report.levels.map(levelRow)}</tbody>
</table></div>
<h2 id="eidas-high">acr <code>urn:svc:cert:eidas:high</code></h2>
<p>A verification earns the eIDAS-high acr, when the merchant asked for it, only with passive authentication, chip
clone detection and liveness passed and a face match level of at least <strong>${report.eidasHigh.minLevel}</strong>
(setting <code>${setting.variable}</code>, default ${setting.defaultLevel}). On this instance that level is
<strong class="${report.eidasHigh.status}">${report.eidasHigh.status}</strong>${report.eidasHigh.status === 'extrapolated' ? ': its false acceptance rate rests on a model of the impostor scores, not on measured pairs. An ArcFace-class ONNX model, calibrated on enough pairs, is what makes it measurable.' : '.'}</p>
<p>The same figures as JSON: <a href="${links.matchLevelsJson}">${links.matchLevelsJson}</a></p>
</main></body>
</html>`.html;
}

function impostorNote(report: MatchLevelsReport): string {
  const pairs = report.calibratedOn.impostorPairs;
  return `${pairs} impostor pairs can vouch for a false acceptance rate of about 3 in ${pairs} at best, so the stricter levels' thresholds come from a fitted model of the impostor score tail.`;
}
