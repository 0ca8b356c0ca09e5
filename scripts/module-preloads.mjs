// Which dynamic imports the build gives their preloads (vite.config.ts, build.modulePreload), shared
// with the build tests. By default Vite's preload helper appends a `modulepreload` link for every
// module a lazy chunk imports, at the moment it is imported. On /forum that burst comes at start:
// the protected area (its route and its data-reading frame, protected-area) and the forum screen import about 40 modules, and with them preloaded the
// page's total blocking time in Lighthouse (mobile, 4x) was 230–600 ms (performance 85–96, median
// 90–94 over four runs of seven); with these two loading their modules as the modules ask for them,
// 110–250 ms (96–99, median 98). The live list is not later for it (881–925 ms at 4x against
// 889–1,012): the forum's snapshot paints first, and the modules it asks for are in the service
// worker's cache. Every other lazy chunk keeps its preloads: the post page opened from a link
// without them took about 100–250 ms longer at 4x (its Markdown renderer's imports are deep).

/** The chunks (by name: the module's file name) whose imports are not preloaded. */
export const LOADED_AS_ASKED = ['protected-route', 'protected-area', 'forum'];

const chunkOf = (file) => /^assets\/(.+)-[\w-]{8}\.js$/.exec(file)?.[1];

/** build.modulePreload.resolveDependencies: no preloads for LOADED_AS_ASKED's chunks, the rest unchanged. */
export function resolveDependencies(file, deps) {
  return LOADED_AS_ASKED.includes(chunkOf(file) ?? '') ? [] : deps;
}
