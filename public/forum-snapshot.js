// The forum's first page, painted before the app's JavaScript runs, from the snapshot the app
// keeps in Cache Storage (src/db/core/forum-snapshot.ts; names from src/db/contracts.ts, keep
// them in step). The service worker puts it in the page as an inert <template>; this script,
// parser-blocking and synchronous, shows it only on /forum without a search, only to the member
// it was taken for, only with the same stylesheet. Without the service worker it reads the cache
// itself. The live list replaces it in the same frame (src/lib/forum-snapshot.ts).
(function () {
  var template = document.getElementById('forum-snapshot-template');
  if (template) template.remove();
  try {
    if (location.pathname !== '/forum' || location.search) return;
    var user = JSON.parse(localStorage.getItem('insightExchangeUser') || 'null');
    var email = user && typeof user.email === 'string' ? user.email.trim().toLowerCase() : '';
    var css = document.querySelector('link[rel="stylesheet"]');
    if (!email || !css) return;
    var show = function (owner, stylesheet, fill) {
      if (window.__snapshotDone || owner !== email || stylesheet !== css.getAttribute('href')) return;
      var view = document.createElement('div');
      view.id = 'forum-snapshot';
      view.inert = true;
      fill(view);
      // Inline styles travel as data attributes (the CSP blocks style attributes in markup).
      view.querySelectorAll('[data-snapshot-style]').forEach(function (element) {
        element.style.cssText = element.getAttribute('data-snapshot-style');
      });
      document.body.insertBefore(view, document.getElementById('root'));
      document.documentElement.classList.add('snapshot-on');
      // Whatever happens to the app, the snapshot never outstays ten seconds.
      setTimeout(function () {
        view.remove();
        document.documentElement.classList.remove('snapshot-on');
      }, 10000);
    };
    if (template) {
      show(template.getAttribute('data-owner'), template.getAttribute('data-css'), function (view) {
        view.appendChild(template.content.cloneNode(true));
      });
      return;
    }
    if (typeof caches === 'undefined') return;
    caches
      .match('/__forum-snapshot', { cacheName: 'insight-forum-snapshot' })
      .then(function (response) {
        return response ? response.json() : null;
      })
      .then(function (snapshot) {
        if (!snapshot) return;
        show(snapshot.owner, snapshot.css, function (view) {
          view.innerHTML = snapshot.html;
        });
      })
      .catch(function () {});
  } catch {
    // No snapshot then: the app paints as usual.
  }
})();
