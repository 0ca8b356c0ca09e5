/* eslint-disable */
// @ts-nocheck -- the plain script as it was, renamed first so its history follows; the next commit makes it TypeScript.
// The forum's first page, painted before the app's JavaScript runs, from the snapshot the app
// keeps in Cache Storage (src/db/core/forum-snapshot.ts; names from src/db/contracts.ts, keep
// them in step). The service worker puts it in the page as an inert <template>; this script,
// parser-blocking and synchronous, shows it only on /forum without a search, only while the
// `insight-snapshot` cookie holds the snapshot's token (removed at every sign-in and sign-out),
// only with the same stylesheet. It reads no localStorage: the first read loads all of it, the
// 4 MB `posts` mirror included. Without the service worker it reads the cache itself. The live
// list replaces it in the same frame (src/lib/forum-snapshot.ts).
//
// It also starts the app (the build moves the entry module here as `data-entry`): at once, or,
// when a snapshot is shown, after the browser painted it, so the app's evaluation comes after.
(function () {
  var script = document.currentScript;
  var entry = script && script.getAttribute('data-entry');
  var shown = false;
  // A module script element, not import(): the dev server would rewrite an import() into a module
  // import, which a classic script cannot hold. Same credentials mode as the entry's modulepreload.
  var start = function () {
    if (!entry) return;
    var tag = document.createElement('script');
    tag.type = 'module';
    tag.crossOrigin = 'anonymous';
    tag.src = entry;
    document.head.appendChild(tag);
  };
  var template = document.getElementById('forum-snapshot-template');
  if (template) template.remove();
  try {
    if (location.pathname === '/forum' && !location.search) {
      var match = /(?:^|; )insight-snapshot=([0-9a-f]{32})(?:;|$)/.exec(document.cookie);
      var token = match && match[1];
      var css = document.querySelector('link[rel="stylesheet"]');
      var show = function (owner, stylesheet, fill) {
        if (window.__snapshotDone || owner !== token || !css || stylesheet !== css.getAttribute('href')) return;
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
        shown = true;
        // Whatever happens to the app, the snapshot never outstays ten seconds.
        setTimeout(function () {
          view.remove();
          document.documentElement.classList.remove('snapshot-on');
        }, 10000);
      };
      if (token && template) {
        show(template.getAttribute('data-token'), template.getAttribute('data-css'), function (view) {
          view.appendChild(template.content.cloneNode(true));
        });
      } else if (token && typeof caches !== 'undefined') {
        caches
          .match('/__forum-snapshot', { cacheName: 'insight-forum-snapshot' })
          .then(function (response) {
            return response ? response.json() : null;
          })
          .then(function (snapshot) {
            if (!snapshot) return;
            show(snapshot.token, snapshot.css, function (view) {
              view.innerHTML = snapshot.html;
            });
          })
          .catch(function () {});
      }
    }
  } catch {
    // No snapshot then: the app paints as usual.
  }
  // After the snapshot's frame (rAF runs before the paint, the task after it).
  if (shown)
    requestAnimationFrame(function () {
      setTimeout(start, 0);
    });
  else start();
})();
