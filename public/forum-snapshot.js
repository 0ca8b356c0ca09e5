// The forum's first page, painted before the app's JavaScript boots, from the snapshot the app
// keeps in Cache Storage (src/db/core/forum-snapshot.ts; the names come from src/db/contracts.ts,
// keep them in step): only on /forum without a search, only for the member it was taken for,
// only with the same stylesheet. The live list replaces it in the same frame (src/lib/forum-snapshot.ts).
(function () {
  try {
    if (location.pathname !== '/forum' || location.search || typeof caches === 'undefined') return;
    var user = JSON.parse(localStorage.getItem('insightExchangeUser') || 'null');
    var email = user && typeof user.email === 'string' ? user.email.trim().toLowerCase() : '';
    var css = document.querySelector('link[rel="stylesheet"]');
    if (!email || !css) return;
    caches
      .match('/__forum-snapshot', { cacheName: 'insight-forum-snapshot' })
      .then(function (response) {
        return response ? response.json() : null;
      })
      .then(function (snapshot) {
        if (!snapshot || window.__snapshotDone || snapshot.owner !== email || snapshot.css !== css.getAttribute('href')) return;
        var view = document.createElement('div');
        view.id = 'forum-snapshot';
        view.inert = true;
        view.innerHTML = snapshot.html;
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
      })
      .catch(function () {});
  } catch {
    // No snapshot then: the app paints as usual.
  }
})();
