/**
 * The only script of the broker pages, served same-origin (CSP script-src 'self'). It follows the status
 * route: marks the steps the phone has reached (the texts are already on the page, in the user's language)
 * and presses Continue when the session ends, or when the status names a notice the page does not show yet (the
 * scheme's page then shows it). It reads nothing but the step names and the notice's key.
 */
export const WAIT_FOR_PHONE_JS = `(function () {
  var form = document.getElementById('continue');
  var list = document.getElementById('progress');
  if (!form || !list) return;
  var url = form.getAttribute('data-status-url');
  // The steps in their order as the page lists them (the scheme's own, then done), after waiting.
  var order = ['waiting'];
  var listed = list.querySelectorAll('li[data-for]');
  for (var l = 0; l < listed.length; l++) order.push(listed[l].getAttribute('data-for'));
  function show(step) {
    var reached = order.indexOf(step);
    if (reached < 0 || list.getAttribute('data-step') === step) return;
    list.setAttribute('data-step', step);
    // Once a phone has the session the QR code and link open nothing more.
    var handoff = document.getElementById('handoff');
    if (handoff && reached > 0 && !handoff.hasAttribute('data-keep')) handoff.hidden = true;
    // The first listed step not yet done is under way, once the other device has started (as the page renders it).
    var items = list.querySelectorAll('li[data-for]');
    var current = null;
    for (var i = 0; i < items.length; i++) {
      var at = order.indexOf(items[i].getAttribute('data-for'));
      items[i].classList.toggle('done', at <= reached);
      if (at > reached && current === null && reached > 0) current = items[i];
      if (items[i] === current) items[i].setAttribute('aria-current', 'step');
      else items[i].removeAttribute('aria-current');
    }
  }
  function check() {
    fetch(url, { credentials: 'same-origin', cache: 'no-store' })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (s) {
        if (s && s.step) show(s.step);
        var notice = s && typeof s.notice === 'string' ? s.notice : '';
        if (s && (s.done || notice !== (form.getAttribute('data-notice') || ''))) form.submit();
        else setTimeout(check, 1500);
      })
      .catch(function () { setTimeout(check, 4000); });
  }
  setTimeout(check, 1000);
})();
`;
