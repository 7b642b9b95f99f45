/** The only script of the broker pages, served same-origin (CSP script-src 'self'). */
export const WAIT_FOR_PHONE_JS = `(function () {
  var form = document.getElementById('continue');
  if (!form) return;
  var url = form.getAttribute('data-status-url');
  function check() {
    fetch(url, { credentials: 'same-origin', cache: 'no-store' })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (s) {
        if (s && s.done) form.submit();
        else setTimeout(check, 2000);
      })
      .catch(function () { setTimeout(check, 4000); });
  }
  setTimeout(check, 2000);
})();
`;
