// Where a full load's main-thread time goes before the first post, from a Chromium trace
// (devtools.timeline): bench/run.mjs with BENCH_PROFILE=trace writes bench/trace-<size>.md. A CPU
// profile (BENCH_PROFILE=1) shows script; this shows the browser's own work on the page: parsing
// the HTML and the stylesheets, style, layout, paint.

/** The renderer main thread that navigated (the one with the page's navigationStart mark). */
function pageThread(events) {
  const start = events.find((event) => event.name === 'navigationStart' && event.args?.data?.isLoadingMainFrame);
  if (!start) throw new Error('the trace has no navigationStart of the main frame');
  return { pid: start.pid, tid: start.tid, startTs: start.ts };
}

/**
 * Summarises the main thread from navigation start to `untilMs` after it: the time of each kind of
 * top-level task and of the work inside them that the issue names (HTML, stylesheets, style,
 * layout, paint, script), as Markdown.
 */
export function traceSummary(trace, untilMs) {
  const events = (Array.isArray(trace) ? trace : trace.traceEvents).filter((event) => event.ph === 'X' && event.dur !== undefined);
  const marks = Array.isArray(trace) ? trace : trace.traceEvents;
  const { pid, tid, startTs } = pageThread(marks);
  const endTs = startTs + untilMs * 1000;
  const mine = events
    .filter((event) => event.pid === pid && event.tid === tid && event.ts + event.dur > startTs && event.ts < endTs)
    .sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const clipped = (event) => (Math.min(event.ts + event.dur, endTs) - Math.max(event.ts, startTs)) / 1000;
  const byName = new Map();
  const insideTasks = new Map();
  const open = [];
  let busy = 0;
  let openUntil = -Infinity;
  for (const event of mine) {
    // Busy: the union of every event's span on the thread (events nest; sorted by start).
    const end = event.ts + event.dur;
    while (open.length > 0 && open[open.length - 1] <= event.ts) open.pop();
    if (open.length === 1) {
      // Directly inside a task: what the tasks did.
      const inside = insideTasks.get(event.name) ?? { ms: 0, count: 0 };
      inside.ms += clipped(event);
      inside.count += 1;
      insideTasks.set(event.name, inside);
    }
    open.push(end);
    if (end > openUntil) {
      busy += Math.max(0, Math.min(end, endTs) - Math.max(event.ts, openUntil, startTs)) / 1000;
      openUntil = end;
    }
    // Inclusive time per kind, counting an event inside another of the same kind once.
    const seen = byName.get(event.name) ?? { ms: 0, count: 0, until: -Infinity };
    if (event.ts >= seen.until) {
      seen.ms += clipped(event);
      seen.until = event.ts + event.dur;
    }
    seen.count += 1;
    byName.set(event.name, seen);
  }
  const named = [
    ['ParseHTML', 'parsing the HTML'],
    ['ParseAuthorStyleSheet', 'parsing stylesheets'],
    ['UpdateLayoutTree', 'style (recalculation)'],
    ['Layout', 'layout'],
    ['PrePaint', 'pre-paint'],
    ['Paint', 'paint'],
    ['Layerize', 'layerize'],
    ['EvaluateScript', 'script evaluation'],
    ['v8.compile', 'script compile'],
    ['FunctionCall', 'script (function calls)'],
    ['TimerFire', 'timers'],
    ['FireAnimationFrame', 'animation frames'],
  ];
  const rows = named
    .filter(([name]) => byName.has(name))
    .map(([name, label]) => `| ${label} (\`${name}\`) | ${byName.get(name).ms.toFixed(1)} ms | ${byName.get(name).count} |`);
  return [
    `Main thread from navigation start to the first post painted (${untilMs.toFixed(0)} ms): busy ${busy.toFixed(1)} ms,`,
    `idle or waiting ${(untilMs - busy).toFixed(1)} ms. Times are inclusive (a parse that runs a script contains it).`,
    '',
    '| work | time | events |',
    '| --- | --- | --- |',
    ...rows,
    '',
    'What the tasks ran, one level down (each event counted once, with what it contains), the longest first:',
    '',
    '| event | time | count |',
    '| --- | --- | --- |',
    ...[...insideTasks]
      .sort((a, b) => b[1].ms - a[1].ms)
      .slice(0, 12)
      .map(([name, { ms, count }]) => `| \`${name}\` | ${ms.toFixed(1)} ms | ${count} |`),
    '',
    'The longest IPC messages handled (what they carried, where the trace names it):',
    '',
    '| message | time |',
    '| --- | --- |',
    ...mine
      .filter((event) => event.name === 'Receive mojo message')
      .sort((a, b) => clipped(b) - clipped(a))
      .slice(0, 6)
      .map((event) => `| ${mojoName(event, mine)} | ${clipped(event).toFixed(1)} ms |`),
  ].join('\n');
}

/** What a mojo message was: the interface in its args, else the longest event inside it. */
function mojoName(event, events) {
  const info = event.args?.chrome_mojo_event_info ?? event.args?.data ?? {};
  const named = info.mojo_interface_tag ?? info.watcher_notify_interface_tag ?? info.interface_name;
  if (named) return `\`${named}\`${info.ipc_hash ? ` (${info.ipc_hash})` : ''}`;
  const inside = events
    .filter((other) => other !== event && other.ts >= event.ts && other.ts + other.dur <= event.ts + event.dur)
    .sort((a, b) => b.dur - a.dur)[0];
  return inside ? `containing \`${inside.name}\` (${(inside.dur / 1000).toFixed(1)} ms)` : 'not named';
}
