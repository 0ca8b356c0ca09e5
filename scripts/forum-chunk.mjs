// The forum's code in one chunk (vite.config.ts, build.rolldownOptions.output.codeSplitting), shared
// with the build tests. Left to itself the bundler cuts what the protected area and the forum import
// (and the entry does not) into about 70 chunks, one per set of importers: each is compressed on its
// own, so the words they share are sent once per chunk, and a member reaching /forum from /login
// fetched 95 KB gzip of them where the same code in one file is 75 KB. Here every module that the
// forum screen and the protected area's frame import statically, and the entry does not, goes into
// one chunk, FORUM_CHUNK. The two screens themselves keep their chunks (the router's import()
// resolves to their namespace; the bundler dropped it from a group that held them: "Export
// 'forum_exports' is not defined"). Grouped without their dependencies (those the entry holds stay
// there), chunks could import each other in a cycle, and a module would read a binding not yet set:
// tests/build/chunks.test.ts holds the build to no cycle and to every import() finding its export.
// The data layer's start (STARTS), which every protected screen loads, goes in the same chunk; the
// operations' runner gets one chunk of its own (RUNNER_CHUNK), without what the sign-in page imports.

/** The name of the forum's chunk (assets/forum-core-<hash>.js). */
export const FORUM_CHUNK = 'forum-core';
/**
 * The way to the forum's first frame on a new browser (src/db/storage/first-frame.ts): what the
 * sign-in page, its Sign In, the mode's detection and the protected area's route
 * (src/app/protected-route.tsx) import statically and the entry does not, the cards, toolbar and
 * sidebar the live forum shares with the frame included, in one chunk without the data layer's code
 * (tests/build/forum-path.test.ts holds it so). The forum's chunk imports it. The roots that are
 * screens or Sign In's code keep their own chunks (FIRST_FRAME_OWN).
 */
export const FIRST_FRAME_CHUNK = 'first-frame';
const FIRST_FRAME_OWN = ['src/app/protected-route.tsx', 'src/pages/login.tsx', 'src/sync/auth.ts'];
const FIRST_FRAME_ROOTS = [...FIRST_FRAME_OWN, 'src/sync/mode.ts'];
/**
 * An older build's posts read for the first frame (src/db/mirror/frame-copy.ts, loaded by Sign In
 * where a copy is): with the posts' codec, in a chunk of its own without the data layer's code.
 */
export const FRAME_COPY_CHUNK = 'frame-copy';
const FRAME_COPY_ROOT = 'src/db/mirror/frame-copy.ts';
/** The operations' runner and definitions, loaded at the first operation (src/db/ops/run-later.ts): one chunk too. */
export const RUNNER_CHUNK = 'runner';
const RUNNER_ROOT = 'src/db/ops/run.ts';
/** The sign-in page and what its Sign In runs (sync/auth.ts): the way to /forum (issue 64, item 2). */
const SIGN_IN = ['src/pages/login.tsx', 'src/sync/auth.ts'];

/** The app's entry and the roots of the forum's code, relative to the project. */
const ENTRY = 'src/main.tsx';
const FORUM_ROOTS = ['src/pages/forum.tsx', 'src/app/protected-area.tsx'];
/** What every screen of the protected area starts with import() (app/data-status.tsx): the data layer's start. */
const STARTS = ['src/db/startup.ts', 'src/sync/start.ts'];

// @tabler/icons-react's index imports every icon (about 5,000): a walk through it would count every
// icon as imported by whoever imports one. The walk goes round it, to the icons a module names.
const ICONS = 'node_modules/@tabler/icons-react/dist/esm/';
const ICON_IMPORT = /import\s*\{([^}]*)\}\s*from\s*["']@tabler\/icons-react["']/g;

/** The icon modules that `info`'s code imports by name from the icons' index. */
function iconsOf(root, info) {
  const names = [...(info.code ?? '').matchAll(ICON_IMPORT)].flatMap((match) =>
    match[1].split(',').map((name) => name.trim().split(/\s+as\s+/)[0]),
  );
  return names.filter((name) => /^Icon\w+$/.test(name)).map((name) => `${root}${ICONS}icons/${name}.mjs`);
}

/** Every module `starts` import statically, themselves included (icons: only those named). */
function staticClosure(context, root, starts) {
  const seen = new Set();
  const stack = [...starts];
  while (stack.length > 0) {
    const id = stack.pop();
    const info = context.getModuleInfo(id);
    if (seen.has(id) || !info) continue;
    seen.add(id);
    stack.push(...info.importedIds.filter((next) => !next.startsWith(`${root}${ICONS}tabler-icons-react`)), ...iconsOf(root, info));
  }
  return seen;
}

/** The codeSplitting group of the forum's code and of the runner's, for the project at `root` (a path ending in /). */
export function forumChunkGroup(root) {
  let chunkOf;
  return {
    name(id, context) {
      if (!chunkOf) {
        const initial = staticClosure(context, root, [root + ENTRY]);
        const forum = staticClosure(
          context,
          root,
          [...FORUM_ROOTS, ...STARTS].map((path) => root + path),
        );
        const frame = staticClosure(
          context,
          root,
          FIRST_FRAME_ROOTS.map((path) => root + path),
        );
        for (const id of initial) {
          forum.delete(id);
          frame.delete(id);
        }
        for (const path of FIRST_FRAME_OWN) frame.delete(root + path);
        for (const id of frame) forum.delete(id);
        const copy = [...staticClosure(context, root, [root + FRAME_COPY_ROOT])].filter((id) => !initial.has(id) && !frame.has(id));
        for (const id of copy) forum.delete(id);
        for (const path of FORUM_ROOTS) forum.delete(root + path);
        chunkOf = new Map([
          ...[...forum].map((id) => [id, FORUM_CHUNK]),
          ...[...frame].map((id) => [id, FIRST_FRAME_CHUNK]),
          ...copy.map((id) => [id, FRAME_COPY_CHUNK]),
        ]);
        // The runner's chunk leaves out what the sign-in page and its Sign In import (the forms'
        // validation, the count of operations waiting): they would load the runner with them.
        const signIn = staticClosure(
          context,
          root,
          SIGN_IN.map((path) => root + path),
        );
        const runner = [...staticClosure(context, root, [root + RUNNER_ROOT])].filter(
          (id) => !initial.has(id) && !chunkOf.has(id) && !signIn.has(id),
        );
        for (const id of runner) chunkOf.set(id, RUNNER_CHUNK);
      }
      return chunkOf.get(id) ?? null;
    },
    // Only the modules named: their imports that the entry holds stay in the entry's chunk.
    includeDependenciesRecursively: false,
  };
}

/** The name of the chunk of what every screen runs and the entry holds too (assets/base-<hash>.js). */
export const BASE_CHUNK = 'base';
/** React, its JSX runtime and the posts' shared rules: every chunk of the app imports them. */
const BASE_MODULES = [
  'node_modules/react/index.js',
  'node_modules/react/cjs/react.production.js',
  'node_modules/react/jsx-runtime.js',
  'node_modules/react/cjs/react-jsx-runtime.production.js',
  'src/shared/post-rules.ts',
  // Who sees what (issue 60): post-rules' maySee reads it, so it goes where post-rules goes.
  'src/shared/visibility.ts',
  // The stored names, the session's rules and the guarded localStorage: the entry, Sign In and the
  // data layer share them; alone, each was a file of its own on the way to the forum (issue 64, item 2).
  'src/db/contracts.ts',
  'src/db/members/session-rules.ts',
  'src/db/storage/local-store.ts',
  // The forum's first frame's mark (issue 64, item 2): the entry and the way to the frame share it.
  'src/db/storage/first-frame.ts',
];
/** Vite's preload helper, which every chunk with a dynamic import uses: with them, not a file of its own. */
const PRELOAD_HELPER = /vite\/preload-helper/;

/**
 * The codeSplitting group of BASE_MODULES. The entry imports them, and so do chunks that do not
 * import the entry (react-bootstrap's parts, the new-password field), so the bundler gives them
 * chunks of their own, one each: react (3.0 KB gzip), its JSX runtime (0.3) and the posts' rules
 * (0.9), each compressed alone. In one chunk they are 0.3 KB smaller (issue 40, item 18), and a
 * page fetches one file instead of three. They import nothing but the bundler's runtime.
 */
export function baseChunkGroup(root) {
  const ids = new Set(BASE_MODULES.map((path) => root + path));
  return { name: (id) => (ids.has(id) || PRELOAD_HELPER.test(id) ? BASE_CHUNK : null), includeDependenciesRecursively: false };
}
