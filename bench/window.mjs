// Issue 44's rows: a new device keeps a window of the forum. For each size (BENCH_SIZES, default
// 100,000 and 1,000,000 posts) on PostgreSQL (seeded with COPY) and, at 100,000, on PGlite (seeded
// with one INSERT … SELECT while no server has its folder open), in a fresh headless Chromium with a
// profile on disk:
// - Sign In (the click) → the first 20 posts painted on /forum (the member taps Forum as soon as
//   the home page shows), and → the window stored (2,000 posts in IndexedDB and the first sync done);
// - the device's IndexedDB size then (navigator.storage.estimate(), service workers blocked: the
//   origin's storage is IndexedDB alone);
// - past the window: in a category the window holds 10 posts of, each click on "Load older posts
//   from the server" → the next page painted (the frame after the new cards), 20 pages (9 at 100,000), p95;
// - a search the device cannot answer (a word only posts older than the window carry): from the
//   keystroke (the whole query typed at once) → the server's results painted, 20 searches, p95; the
//   app asks the server 150 ms after typing stops (300 ms before the first run), and the figure includes that wait.
// Issue 64 (item 5): the older pages' figures are given for the first five pages and the last five
// too (pages 1–5 and 16–20 at a million posts), to show whether a page costs more as the list grows.
// BENCH_WINDOW_SEARCH=0 leaves the searches out (a run about the older pages only).
// Traffic goes to 127.0.0.1 only; every step is bounded and the run stops by itself.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { PGlite } from '@electric-sql/pglite';
import { startPostgres } from '../scripts/postgres.mjs';
import { BENCH_PASSWORD, percentile, Session, startServer } from './server/harness.mjs';
import { fillSignIn, newDiskDevice, waitForFirstSync } from './devices.mjs';

const SIZES = (process.env.BENCH_SIZES ?? '100000,1000000').split(',').map(Number);
const ENGINES = (process.env.BENCH_ENGINES ?? 'postgres,pglite').split(',');
const WINDOW = 2_000;
const CATEGORIES = ['Quantitative', 'Qualitative', 'AI & Technology', 'Trends', 'Best Practices'];
/** One post in 200 is a case study: ten in the window, the rest older. */
const SPARSE = 200;
const ROUNDS = 20;
const log = (line) => console.log(`[bench:window] ${line}`);

/** Seeded post n: its title carries `lot<n / 1000>` (a word a thousand posts share), its category cycles. */
const titleOf = (n) => `Seeded post ${n} of lot${Math.floor(n / 1_000)}`;
const categoryOf = (n) => (n % SPARSE === 0 ? 'Case Studies' : CATEGORIES[n % CATEGORIES.length]);
const CONTENT = 'A realistic paragraph of content about a study, its sample and what we learned from it. '.repeat(3).trim();

/** `count` approved posts through COPY … FROM STDIN, the search trigger off (its table filled after, in one statement). */
async function seedWithCopy(url, count) {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [head] = await sql`SELECT seq, last_post_id FROM change_head`;
    const seq = Number(head.seq);
    const base = Math.max(Number(head.last_post_id), Date.now()) + 1;
    await sql`ALTER TABLE posts DISABLE TRIGGER posts_search_doc`;
    const copy =
      await sql`COPY posts (id, title, content, category, author, author_email, author_role, likes, comments, views, date, is_top_contributor, tags, status, seq) FROM STDIN`.writable();
    const CHUNK = 10_000;
    for (let from = 1; from <= count; from += CHUNK) {
      let text = '';
      for (let n = from; n < Math.min(from + CHUNK, count + 1); n += 1)
        text += `${base + n}\t${titleOf(n)}\t${CONTENT}\t${categoryOf(n)}\tSeeded\tseeded@bench.example\tuser\t0\t0\t0\tJust now\tf\t[]\tapproved\t${seq + n}\n`;
      if (!copy.write(text)) await new Promise((resolve) => copy.once('drain', resolve));
    }
    await new Promise((resolve, reject) => copy.end((error) => (error ? reject(error) : resolve())));
    await sql`ALTER TABLE posts ENABLE TRIGGER posts_search_doc`;
    await sql`INSERT INTO post_search (post_id, doc)
      SELECT id, setweight(to_tsvector('english'::regconfig, title), 'A') || setweight(to_tsvector('english'::regconfig, content), 'B')
      FROM posts WHERE id > ${base}`;
    await sql`UPDATE change_head SET seq = ${seq + count}, last_post_id = ${base + count}`;
    // As after any bulk load: vacuumed and analyzed now, so that autovacuum does not run on a million
    // new rows (and two of the machine's cores) while the bench measures.
    for (const table of ['posts', 'post_search']) await sql.unsafe(`VACUUM (ANALYZE) ${table}`);
    await sql`CHECKPOINT`;
  } finally {
    await sql.end();
  }
}

/** The same posts into a PGlite folder no server has open, in one INSERT … SELECT (the trigger fills the search table). */
async function seedPglite(dataDir, count) {
  const pglite = await PGlite.create({ dataDir });
  try {
    const [head] = (await pglite.query('SELECT seq, last_post_id FROM change_head')).rows;
    const seq = Number(head.seq);
    const base = Math.max(Number(head.last_post_id), Date.now()) + 1;
    await pglite.query(
      `INSERT INTO posts (id, title, content, category, author, author_email, author_role, likes, comments, views, date, is_top_contributor, tags, status, seq)
       SELECT $1::bigint + n, 'Seeded post ' || n || ' of lot' || (n / 1000), $4,
         CASE WHEN n % ${SPARSE} = 0 THEN 'Case Studies' ELSE (ARRAY['${CATEGORIES.join("','")}'])[1 + n % ${CATEGORIES.length}] END,
         'Seeded', 'seeded@bench.example', 'user', 0, 0, 0, 'Just now', false, '[]'::jsonb, 'approved', $2::bigint + n
       FROM generate_series(1, $3::int) AS n`,
      [base, seq, count, CONTENT],
    );
    await pglite.query('UPDATE change_head SET seq = $1, last_post_id = $2', [seq + count, base + count]);
    for (const table of ['posts', 'post_search']) await pglite.query(`ANALYZE ${table}`);
  } finally {
    await pglite.close();
  }
}

/**
 * Starts a Chromium trace of `page` (CDP Tracing); stop(file) writes it and answers a summary: the
 * main thread's time by top-level event (style, layout, paint, scripts), in ms.
 */
async function startTrace(context, page) {
  const cdp = await context.newCDPSession(page);
  const events = [];
  cdp.on('Tracing.dataCollected', ({ value }) => events.push(...value));
  const done = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.start', {
    categories: 'devtools.timeline,disabled-by-default-devtools.timeline,blink.user_timing,v8.execute',
    transferMode: 'ReportEvents',
  });
  return {
    async stop(file) {
      await cdp.send('Tracing.end');
      await done;
      writeFileSync(file, JSON.stringify({ traceEvents: events }));
      // The renderer's main thread: the thread that ran the page's layouts.
      const main = events.find((event) => event.name === 'Layout' || event.name === 'UpdateLayoutTree');
      const sums = {};
      for (const event of events)
        if (main && event.pid === main.pid && event.tid === main.tid && event.ph === 'X' && event.dur)
          for (const name of [
            'UpdateLayoutTree',
            'Layout',
            'Paint',
            'PrePaint',
            'Layerize',
            'FunctionCall',
            'EvaluateScript',
            'RunMicrotasks',
            'HitTest',
            'ParseHTML',
          ])
            if (event.name === name) sums[name] = (sums[name] ?? 0) + event.dur / 1000;
      return `${file} ${Object.entries(sums)
        .map(([name, ms]) => `${name} ${ms.toFixed(1)}`)
        .join(', ')}`;
    },
  };
}

/** The figures of one new device on `server` holding `size` posts. */
async function measure(server, size) {
  const { context, page } = await newDiskDevice(server.url);
  try {
    // The frame after /forum shows 20 posts, as wall-clock time (the bench's clock). The list's own
    // IntersectionObserver is off: the bench clicks "Load older posts" itself, one page at a time.
    await page.addInitScript(() => {
      window.IntersectionObserver = undefined;
      const watch = () => {
        const shown = location.pathname === '/forum' ? document.querySelectorAll('article').length : 0;
        if (shown > 0 && !window.paintedFirst) requestAnimationFrame(() => setTimeout(() => (window.paintedFirst ??= Date.now())));
        if (shown >= 20) requestAnimationFrame(() => setTimeout(() => (window.painted20 = Date.now())));
        else requestAnimationFrame(watch);
      };
      requestAnimationFrame(watch);
    });
    const email = `window-${size}@bench.example`;
    await new Session(server.url).signIn(email);
    const signIn = await fillSignIn(page, email, BENCH_PASSWORD);
    // As after a member types their password: what the sign-in page loads ahead of the press is in.
    await page.waitForLoadState('networkidle');
    const profiler = process.env.BENCH_PROFILE === '1' ? await context.newCDPSession(page) : undefined;
    if (profiler) {
      await profiler.send('Profiler.enable');
      await profiler.send('Profiler.setSamplingInterval', { interval: 200 });
      await profiler.send('Profiler.start');
    }
    // BENCH_TRACE=1: when each request of the sign-in and the first sync starts and ends, from the click.
    const trace = [];
    if (process.env.BENCH_TRACE) {
      const at = () => Date.now() - started;
      const name = (request) => new URL(request.url()).pathname + new URL(request.url()).search;
      page.on('request', (request) => trace.push(`${at()} → ${name(request)}`));
      page.on('requestfinished', (request) => trace.push(`${at()} ← ${name(request)}`));
      page.on('framenavigated', (frame) => frame === page.mainFrame() && trace.push(`${at()} url ${frame.url()}`));
    }
    const started = Date.now();
    await signIn.click();
    await page.waitForURL(`${server.url}/`);
    // Where the time to the first 20 goes: the sign-in's answer (the server's scrypt check), then the forum.
    const signedIn = Date.now() - started;
    await page.getByRole('link', { name: 'Forum', exact: true }).first().click();
    const forumClicked = Date.now() - started;
    await waitForFirstSync(page, WINDOW, { limitMs: 5 * 60_000 });
    const stored = Date.now() - started;
    const painted =
      (await page.waitForFunction(() => window.painted20, undefined, { timeout: 60_000 }).then((h) => h.jsonValue())) - started;
    if (profiler) {
      const { profile } = await profiler.send('Profiler.stop');
      const file = join(os.tmpdir(), `window-${size}.cpuprofile`);
      writeFileSync(file, JSON.stringify(profile));
      log(`CPU profile of the click to the window stored: ${file}`);
    }
    if (trace.length > 0) {
      const first = (await page.evaluate(() => window.paintedFirst)) - started;
      log(
        `timeline (ms from the click):\n  ${[...trace, `${first} first posts painted`, `${painted} painted 20`, `${stored} window stored`].join('\n  ')}`,
      );
    }
    const usage = await page.evaluate(async () => (await navigator.storage.estimate()).usage);
    const held = await page.evaluate(
      () =>
        new Promise((resolve) => {
          const open = indexedDB.open('insight-exchange');
          open.onsuccess = () => {
            const count = open.result.transaction('posts').objectStore('posts').count();
            count.onsuccess = () => resolve(count.result);
          };
        }),
    );
    log(
      `${size.toLocaleString('en-US')}: 20 painted ${painted} ms, window stored ${stored} ms, ${held} posts, ${(usage / 2 ** 20).toFixed(1)} MB`,
    );

    // Past the window, in a category it holds few of.
    await page.getByLabel('Category').selectOption('Case Studies');
    const pages = [];
    // Pages of 50 while the server has older case studies (at 100,000 posts: 490, so 9 pages).
    const rounds = Math.min(ROUNDS, Math.floor((size - WINDOW) / SPARSE / 50));
    for (let round = 0; round < rounds; round += 1) {
      // The list's own pages first (what the device holds), until the server's button ends it: not measured.
      await page.evaluate(async () => {
        // The bench's own cost stays out of the figure (issue 64, item 5): the list's buttons are found
        // through the LoadMore's class (one or two elements, not every card's buttons), and the new
        // cards through a MutationObserver that looks only at the nodes added, never at the whole list
        // (reading every button's text and counting every article on each frame cost 32–58 ms of
        // samples at page 20 and grew with the list).
        const byText = (text) => [...document.querySelectorAll('.app-load-more button')].find((one) => one.textContent.includes(text));
        const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
        const until = async (test, what) => {
          const limit = performance.now() + 60_000;
          while (!test()) {
            if (performance.now() > limit)
              throw new Error(
                `no ${what} within 60 s: ${document.querySelectorAll('article').length} cards, buttons ${[...document.querySelectorAll('button')].map((one) => one.textContent.trim()).join(' | ')}`,
              );
            await frame();
          }
        };
        // The list's own pages first (what the device holds), until the server's button ends it.
        for (;;) {
          await until(() => byText('Load more posts') || byText('Load older posts from the server'), 'end of the list');
          const local = byText('Load more posts');
          if (!local) break;
          if (local.getAttribute('aria-disabled') !== 'true') local.click();
          await frame();
        }
      });
      // BENCH_PROFILE=pages: a CPU profile of the first older page and of the last, to compare what grows
      // with the list; BENCH_PROFILE=trace: a Chromium trace of them, summed by event (style, layout,
      // paint, scripts). Either covers the measured click alone.
      const profiled = round === 0 || round === rounds - 1;
      const pageProfiler = process.env.BENCH_PROFILE === 'pages' && profiled ? await context.newCDPSession(page) : undefined;
      if (pageProfiler) {
        await pageProfiler.send('Profiler.enable');
        await pageProfiler.send('Profiler.setSamplingInterval', { interval: 200 });
        await pageProfiler.send('Profiler.start');
      }
      const tracer = process.env.BENCH_PROFILE === 'trace' && profiled ? await startTrace(context, page) : undefined;
      pages.push(
        await page.evaluate(async () => {
          const byText = (text) => [...document.querySelectorAll('.app-load-more button')].find((one) => one.textContent.includes(text));
          const button = byText('Load older posts from the server');
          // Resolves at the commit that adds a card (the observer's records name the nodes added).
          const added = new Promise((resolve, reject) => {
            const holdsCard = (node) => node.nodeType === 1 && (node.tagName === 'ARTICLE' || node.querySelector('article') !== null);
            const observer = new MutationObserver((records) => {
              if (!records.some((record) => [...record.addedNodes].some(holdsCard))) return;
              observer.disconnect();
              clearTimeout(timer);
              resolve();
            });
            const timer = setTimeout(() => {
              observer.disconnect();
              reject(new Error(`no next page within 60 s: ${document.querySelectorAll('article').length} cards`));
            }, 60_000);
            observer.observe(document.body, { childList: true, subtree: true });
          });
          const start = performance.now();
          button.click();
          await added;
          await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
          return performance.now() - start;
        }),
      );
      if (tracer)
        log(`trace of older page ${round + 1}: ${await tracer.stop(join(os.tmpdir(), `window-page${round + 1}-${size}.trace.json`))}`);
      if (pageProfiler) {
        const { profile } = await pageProfiler.send('Profiler.stop');
        const file = join(os.tmpdir(), `window-page${round + 1}-${size}.cpuprofile`);
        writeFileSync(file, JSON.stringify(profile));
        log(`CPU profile of older page ${round + 1}: ${file}`);
      }
    }

    // Searches the device cannot answer: a lot whose posts are all older than the window.
    await page.getByLabel('Category').selectOption('All');
    const search = page.getByLabel('Search posts');
    const searches = [];
    const searchesFrom = Date.now() - started;
    const lots = Math.floor((size - WINDOW) / 1_000);
    for (let round = 0; round < (process.env.BENCH_WINDOW_SEARCH === '0' ? 0 : ROUNDS); round += 1) {
      const lot = 1 + Math.floor((round * lots) / ROUNDS);
      await search.fill('');
      await page.getByRole('region', { name: /Results from the server/ }).waitFor({ state: 'detached', timeout: 30_000 });
      const start = await page.evaluate(() => performance.now());
      if (process.env.BENCH_TRACE) trace.push(`${Date.now() - started} typed lot${lot}`);
      // BENCH_PROFILE=search: a CPU profile of the first search, from the keystroke to its results painted.
      const searchProfiler = process.env.BENCH_PROFILE === 'search' && round === 0 ? await context.newCDPSession(page) : undefined;
      if (searchProfiler) {
        await searchProfiler.send('Profiler.enable');
        await searchProfiler.send('Profiler.setSamplingInterval', { interval: 200 });
        await searchProfiler.send('Profiler.start');
      }
      await search.fill(`lot${lot}`);
      await page
        .getByRole('region', { name: /Results from the server/ })
        .getByRole('article')
        .first()
        .waitFor({ timeout: 30_000 });
      searches.push(
        (await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(() => resolve(performance.now())))))) -
          start,
      );
      if (searchProfiler) {
        const { profile } = await searchProfiler.send('Profiler.stop');
        writeFileSync(join(os.tmpdir(), `window-search-${size}.cpuprofile`), JSON.stringify(profile));
      }
    }
    if (process.env.BENCH_TRACE) {
      log(`older pages: ${pages.map(Math.round).join(', ')}; searches: ${searches.map(Math.round).join(', ')}`);
      log(`older page requests:\n  ${trace.filter((line) => line.includes('category=')).join('\n  ')}`);
      log(
        `search requests:\n  ${trace
          .filter((line) => line.includes('/api/') || line.includes('typed') || line.includes('.js'))
          .filter((line) => Number(line.split(' ')[0]) > searchesFrom)
          .slice(0, 30)
          .join('\n  ')}`,
      );
    }
    const figures = (values) =>
      values.length === 0
        ? undefined
        : {
            p50: Math.round(percentile(values, 50)),
            p95: Math.round(percentile(values, 95)),
            max: Math.round(Math.max(...values)),
          };
    const result = {
      signedIn,
      forumClicked,
      painted,
      stored,
      held,
      usageMb: Number((usage / 2 ** 20).toFixed(1)),
      olderPage: figures(pages),
      // The first five pages against the last five: equal when a page's cost does not grow with the list.
      olderPageFirst5: figures(pages.slice(0, 5)),
      olderPageLast5: figures(pages.slice(-5)),
      olderPages: pages.map(Math.round),
      search: figures(searches),
    };
    log(`${size.toLocaleString('en-US')}: ${JSON.stringify(result)}`);
    return result;
  } finally {
    await context.close();
  }
}

const results = {};
for (const engine of ENGINES) {
  for (const size of SIZES) {
    if (engine === 'pglite' && size > 100_000) continue; // PGlite is measured at the sizes it holds
    const key = `${engine} ${size}`;
    const started = Date.now();
    if (engine === 'postgres') {
      const database = await startPostgres();
      try {
        let server = await startServer({ DATABASE_URL: database.url });
        log(`${key}: seeding with COPY…`);
        await seedWithCopy(database.url, size);
        await server.stop();
        server = await startServer({ DATABASE_URL: database.url }, { limits: 'keep' });
        log(`${key}: seeded in ${((Date.now() - started) / 1000).toFixed(0)} s`);
        try {
          results[key] = await measure(server, size);
        } finally {
          await server.stop();
        }
      } finally {
        database.stop();
      }
    } else {
      const dataDir = mkdtempSync(join(os.tmpdir(), 'ie-bench-window-'));
      try {
        const first = await startServer({ DATA_DIR: dataDir });
        await first.stop();
        log(`${key}: seeding…`);
        await seedPglite(dataDir, size);
        const server = await startServer({ DATA_DIR: dataDir }, { limits: 'keep' });
        try {
          results[key] = await measure(server, size);
        } finally {
          await server.stop();
        }
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
  }
}
const saved = 'bench/window-results.json';
const previous = existsSync(saved) ? JSON.parse(readFileSync(saved, 'utf8')) : {};
writeFileSync(
  saved,
  JSON.stringify({ ...previous, ...results, at: new Date().toISOString(), load: os.loadavg()[0].toFixed(2) }, null, 2) + '\n',
);
console.log(JSON.stringify(results, null, 2));
