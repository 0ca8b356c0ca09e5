#!/usr/bin/env node
// `npm run cluster`: Insight Exchange past one machine, on 127.0.0.1, from Debian's packages:
//
//   HAProxy (round robin, readiness checks on /api/ready)
//     → three server instances (dist-server/server.js)
//       → PgBouncer in transaction mode → the PostgreSQL primary
//       → LISTEN on the primary directly (a listening session cannot go through a transaction pooler)
//       → pulls from a streaming replica of the primary (made with pg_basebackup) when it has
//         replayed far enough (REPLICA_URL)
//
// Every part runs in the foreground as a child of this script, which keeps it running: a part that
// exits without being asked to (a crash, a kill, a stop from outside) is started again after a
// back-off (0.25 s, doubling to 8 s, from 0.25 s again once it has stayed up 10 s), with one line
// logged, as systemd's Restart=always does in production (docs/scaling.md). Everything lives in one
// temporary folder and stops whole with Ctrl-C (or SIGTERM). The tests and `npm run bench:cluster`
// use startCluster(). Traffic stays on 127.0.0.1.
//
//   CLUSTER_PORT=4180       the load balancer's port (default 4180)
//   CLUSTER_PORT_BASE=4701  the other parts take consecutive ports from it (default: free ports the system picks)
//   ADMIN_PASSWORD          the admin's password (default: printed)
import { execFile, execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { ensurePostgres, freePort, isRoot, runAsOwner } from './postgres.mjs';

const which = (name, candidates) => candidates.find((path) => existsSync(path)) ?? name;

/** HAProxy and PgBouncer from Debian; installs them when missing and root, else throws a plain message. */
export function ensureClusterTools() {
  const missing = [
    ['haproxy', '/usr/sbin/haproxy'],
    ['pgbouncer', '/usr/sbin/pgbouncer'],
  ].filter(([, path]) => !existsSync(path));
  if (missing.length > 0 && isRoot() && existsSync('/usr/bin/apt-get')) {
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    execFileSync('apt-get', ['install', '-y', '-qq', ...missing.map(([name]) => name)], { stdio: 'inherit', env });
  }
  const still = missing.filter(([, path]) => !existsSync(path));
  if (still.length > 0)
    throw new Error(
      `Missing: ${still.map(([name]) => name).join(', ')}. Run 'sudo apt-get install -y haproxy pgbouncer postgresql' first.`,
    );
  return { haproxy: which('haproxy', ['/usr/sbin/haproxy']), pgbouncer: which('pgbouncer', ['/usr/sbin/pgbouncer']) };
}

/** The `postgres` user's ids when we are root (PostgreSQL and PgBouncer refuse to run as root), else none. */
const ownerIds = () =>
  isRoot()
    ? {
        uid: Number(execFileSync('id', ['-u', 'postgres']).toString().trim()),
        gid: Number(execFileSync('id', ['-g', 'postgres']).toString().trim()),
      }
    : {};

const owned = (path) => {
  const { uid, gid } = ownerIds();
  if (uid !== undefined) chownSync(path, uid, gid);
};

/** Waits until `check` resolves true, at most `ms`; `what` (a text, or a function giving it) names it in the error. */
async function until(check, ms, what) {
  const end = Date.now() + ms;
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      // not yet
    }
    if (Date.now() > end) throw new Error(`${typeof what === 'function' ? what() : what}: not ready within ${ms} ms`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

/** Liveness: the process answers (GET /api/health runs no query). */
const healthy = async (url) => (await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2_000) })).ok;

/** Whether something accepts TCP connections on 127.0.0.1:`port`. */
const listening = (port) =>
  new Promise((done) => {
    const socket = connect(port, '127.0.0.1');
    socket.setTimeout(1_000, () => socket.destroy(new Error('timeout')));
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });

/** The first restart of a part waits this long, each next one twice as long, up to RESTART_MAX_MS. */
const RESTART_FIRST_MS = 250;
const RESTART_MAX_MS = 8_000;
/** A part that stayed up this long starts its back-off again from RESTART_FIRST_MS. */
const STEADY_MS = 10_000;

/** The wait before a part's restart, after `failures` restarts since it last stayed up STEADY_MS. */
export const restartDelay = (failures) => Math.min(RESTART_FIRST_MS * 2 ** failures, RESTART_MAX_MS);

/**
 * One part of the cluster, kept running. `launch()` spawns its process in the foreground (in a
 * process group of its own, so a terminal's Ctrl-C reaches only this script, which stops the parts
 * in order); whenever it exits while not stopped, it is launched again after restartDelay(), and
 * one line is logged. `ready()` says whether it serves: start() and up() wait for it.
 *   start()       launch it and wait until ready (also after stop(): a deliberate start);
 *   stop(signal)  stop it and keep it stopped (what `systemctl stop` does), resolving once it exited;
 *   kill(signal)  a fault: signal it and resolve once it exited; the supervisor starts it again;
 *   up()          wait until it is ready again (after a fault).
 */
function supervised({ name, launch, ready, stopSignal = 'SIGTERM', log }) {
  let stopped = true;
  let failures = 0;
  let pending;
  const part = {
    name,
    child: undefined,
    output: '',
    /** How many times the supervisor started it again. */
    restarts: 0,
    exited: Promise.resolve(),
    launch() {
      const started = Date.now();
      const child = launch();
      part.child = child;
      const keep = (chunk) => {
        part.output = (part.output + chunk.toString()).slice(-20_000);
      };
      child.stdout?.on('data', keep);
      child.stderr?.on('data', keep);
      child.once('error', (error) => keep(`${name}: ${error.message}\n`));
      // 'exit', not 'close': a postmaster's own children hold its output open after it was killed.
      part.exited = new Promise((done) =>
        child.once('exit', (code, signal) => {
          done(code ?? signal);
          if (stopped) return;
          if (Date.now() - started >= STEADY_MS) failures = 0;
          const delay = restartDelay(failures);
          failures += 1;
          log(`${name} exited (${signal ?? `code ${code}`}); starting it again in ${delay / 1000} s`);
          pending = setTimeout(() => {
            pending = undefined;
            if (stopped) return;
            part.restarts += 1;
            part.launch();
          }, delay);
        }),
      );
    },
    async start(ms = 60_000) {
      if (!stopped) return part.up(ms);
      stopped = false;
      failures = 0;
      part.launch();
      await part.up(ms);
    },
    up: (ms = 60_000) => until(ready, ms, () => `${name}\n${part.output}`),
    async kill(signal = 'SIGKILL') {
      const child = part.child;
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      await part.exited;
    },
    /** Marks it stopped at once (no restart from here on); stop() then ends its process. */
    hold() {
      stopped = true;
      clearTimeout(pending);
    },
    async stop(signal = stopSignal) {
      part.hold();
      const child = part.child;
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      const late = setTimeout(() => {
        log(`${name} did not close within 20 s of ${signal}: killed`);
        child.kill('SIGKILL');
      }, 20_000);
      await part.exited;
      clearTimeout(late);
    },
  };
  return part;
}

/**
 * Starts the whole topology; resolves to its handles. `serverScript` and `distDir` are the built
 * server and app (defaults: dist-server/server.js and dist). `portBase` (or CLUSTER_PORT_BASE):
 * the parts take consecutive ports from it (primary, replica, PgBouncer, then the load balancer
 * unless `port` names it, then the instances); without it, free ports the system picks.
 */
export async function startCluster({
  instances = 3,
  port,
  portBase = Number(process.env.CLUSTER_PORT_BASE) || undefined,
  serverScript = resolve('dist-server/server.js'),
  distDir = resolve('dist'),
  adminPassword = randomBytes(9).toString('base64url'),
  env: extraEnv = {},
  log = () => undefined,
} = {}) {
  const bin = ensurePostgres();
  const tools = ensureClusterTools();
  const dir = mkdtempSync(join(tmpdir(), 'ie-cluster-'));
  owned(dir);
  let nextPort = portBase;
  const takePort = async () => (nextPort === undefined ? freePort() : nextPort++);
  const asOwner = { ...ownerIds(), detached: true, stdio: ['ignore', 'pipe', 'pipe'] };
  const own = { detached: true, stdio: ['ignore', 'pipe', 'pipe'] };
  /** Every part; and how to stop them, in the order they started (stopped in the reverse order). */
  const parts = [];
  const stops = [];
  const stopAll = async () => {
    // None is started again from here on, whatever stops first.
    for (const part of parts) part.hold();
    for (const stop of stops.splice(0).reverse()) {
      try {
        await stop();
      } catch (error) {
        log(`stopping: ${error.message}`);
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  /** A part started: known to stopAll, and stopped by it on its own unless `stop` is given. */
  const add = (part, stop = () => part.stop()) => {
    parts.push(part);
    if (stop) stops.push(stop);
    return part;
  };
  try {
    // The primary and its replica: two local clusters, each one `postgres` process in the
    // foreground (SIGINT: a fast shutdown; SIGQUIT: immediate).
    const primaryPort = await takePort();
    const replicaPort = await takePort();
    const database = (name, data, pgPort) =>
      supervised({
        name,
        log,
        stopSignal: 'SIGQUIT',
        launch: () =>
          spawn(
            `${bin}/postgres`,
            [
              ...['-D', data, '-p', String(pgPort), '-k', dir],
              ...['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=300'],
              ...['-c', 'wal_level=replica', '-c', 'hot_standby=on'],
            ],
            asOwner,
          ),
        ready: () =>
          new Promise((done) => execFile(`${bin}/pg_isready`, ['-q', '-h', '127.0.0.1', '-p', String(pgPort)], (error) => done(!error))),
      });
    runAsOwner(`${bin}/initdb -D ${dir}/primary -A trust -U postgres >/dev/null`);
    const primary = add(database('primary', `${dir}/primary`, primaryPort));
    await primary.start();
    log(`primary: PostgreSQL on 127.0.0.1:${primaryPort}`);
    runAsOwner(`${bin}/pg_basebackup -h 127.0.0.1 -p ${primaryPort} -U postgres -D ${dir}/replica -R -X stream -c fast`);
    const replica = add(database('replica', `${dir}/replica`, replicaPort));
    await replica.start();
    log(`replica: PostgreSQL on 127.0.0.1:${replicaPort} (streaming from the primary, made with pg_basebackup)`);

    // PgBouncer in transaction mode, in front of the primary (SIGINT: its safe shutdown).
    const bouncerPort = await takePort();
    writeFileSync(`${dir}/userlist.txt`, '"postgres" ""\n');
    writeFileSync(
      `${dir}/pgbouncer.ini`,
      [
        '[databases]',
        `postgres = host=127.0.0.1 port=${primaryPort} dbname=postgres user=postgres`,
        '[pgbouncer]',
        'listen_addr = 127.0.0.1',
        `listen_port = ${bouncerPort}`,
        `unix_socket_dir = ${dir}`,
        'auth_type = trust',
        // Its console (SHOW POOLS, SHOW CLIENTS) for the tests and a person looking in.
        'admin_users = postgres',
        `auth_file = ${dir}/userlist.txt`,
        'pool_mode = transaction',
        'max_client_conn = 1000',
        'default_pool_size = 10',
        'ignore_startup_parameters = extra_float_digits,options',
        // After the primary restarts, try it again within a second (the default waits 15 s).
        'server_login_retry = 1',
        '',
      ].join('\n'),
    );
    owned(`${dir}/pgbouncer.ini`);
    owned(`${dir}/userlist.txt`);
    const bouncer = add(
      supervised({
        name: 'PgBouncer',
        log,
        launch: () => spawn(tools.pgbouncer, [`${dir}/pgbouncer.ini`], asOwner),
        ready: () => listening(bouncerPort),
      }),
    );
    await bouncer.start();
    log(`PgBouncer: transaction mode on 127.0.0.1:${bouncerPort}`);

    // The load balancer's port, then the instances (their Origin check knows it).
    const lbPort = port ?? (await takePort());
    const lbUrl = `http://127.0.0.1:${lbPort}`;
    const databaseUrl = `postgres://postgres@127.0.0.1:${bouncerPort}/postgres`;
    const primaryUrl = `postgres://postgres@127.0.0.1:${primaryPort}/postgres`;
    const replicaUrl = `postgres://postgres@127.0.0.1:${replicaPort}/postgres`;
    const servers = [];
    for (let index = 0; index < instances; index += 1) {
      const serverPort = await takePort();
      const dataDir = join(dir, `instance-${index + 1}`);
      mkdirSync(dataDir);
      const instanceEnv = {
        ...process.env,
        HOST: '127.0.0.1',
        PORT: String(serverPort),
        DATA_DIR: dataDir,
        DIST_DIR: distDir,
        DATABASE_URL: databaseUrl,
        DATABASE_POOL_MODE: 'transaction',
        DATABASE_LISTEN_URL: primaryUrl,
        REPLICA_URL: replicaUrl,
        ADMIN_PASSWORD: adminPassword,
        PUBLIC_ORIGIN: `${lbUrl},http://localhost:${lbPort}`,
        TRUST_PROXY: '127.0.0.1',
        LOG_LEVEL: 'warn',
        ...extraEnv,
      };
      const url = `http://127.0.0.1:${serverPort}`;
      const instance = supervised({
        name: `instance-${index + 1}`,
        log,
        launch: () => spawn(process.execPath, [serverScript], { ...own, env: instanceEnv }),
        ready: () => healthy(url),
      });
      servers.push(Object.assign(instance, { port: serverPort, url }));
    }
    // Started one after another: the first runs the migrations (the others find them done). They
    // stop together, each finishing its requests.
    stops.push(() => Promise.all(servers.map((instance) => instance.stop())));
    for (const instance of servers) {
      await add(instance, null).start();
      log(`${instance.name}: ${instance.url}`);
    }

    // HAProxy in front of them. It checks readiness (GET /api/ready: the instance reaches its
    // database) but takes an instance out only after ten failed checks a second apart: a pooler or
    // primary away for a few seconds takes no instance out (a push waits inside the instance, which
    // tries again for up to 10 s, server/lib/reachable.ts), while an instance whose connection is
    // refused (it died) goes out at its first refused request (observe layer4), and that request
    // goes to another. A request the instance closed without answering (killed mid-request) is sent
    // to another too when it is a GET or a push (op ids make a push safe to send twice).
    writeFileSync(
      `${dir}/haproxy.cfg`,
      [
        'global',
        '  maxconn 9000',
        'defaults',
        '  mode http',
        '  option forwardfor',
        '  timeout connect 2s',
        '  timeout client 60s',
        '  timeout server 60s',
        // A live stream (server-sent events) stays open: an hour, then the device reconnects.
        '  timeout tunnel 1h',
        'frontend web',
        `  bind 127.0.0.1:${lbPort}`,
        '  default_backend app',
        'backend app',
        '  balance roundrobin',
        '  option httpchk',
        `  http-check send meth GET uri /api/ready ver HTTP/1.1 hdr Host 127.0.0.1:${lbPort}`,
        '  http-check expect status 200',
        '  retries 3',
        '  option redispatch 1',
        '  retry-on conn-failure empty-response',
        '  http-request disable-l7-retry if !METH_GET !{ path /api/ops }',
        '  default-server inter 1s downinter 500ms fall 10 rise 1 observe layer4 error-limit 1 on-error mark-down',
        ...servers.map((instance) => `  server ${instance.name} 127.0.0.1:${instance.port} check`),
        '',
      ].join('\n'),
    );
    const haproxy = add(
      supervised({
        name: 'HAProxy',
        log,
        launch: () => spawn(tools.haproxy, ['-db', '-f', `${dir}/haproxy.cfg`], own),
        ready: () => healthy(lbUrl),
      }),
    );
    await haproxy.start(20_000);
    log(`HAProxy: ${lbUrl} → ${servers.length} instances`);

    return {
      url: lbUrl,
      dir,
      adminPassword,
      primary: Object.assign(primary, { url: primaryUrl, port: primaryPort }),
      replica: Object.assign(replica, { url: replicaUrl, port: replicaPort }),
      bouncer: Object.assign(bouncer, { url: databaseUrl, port: bouncerPort }),
      haproxy: Object.assign(haproxy, { url: lbUrl, port: lbPort }),
      instances: servers,
      /** Stops every part (HAProxy, the instances, PgBouncer, both PostgreSQL clusters) and removes the folder. */
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

// `npm run cluster`: start it, print where, stop on Ctrl-C or SIGTERM.
if (import.meta.url === `file://${process.argv[1]}`) {
  const say = (line) => console.log(`[cluster] ${line}`);
  if (!existsSync('dist-server/server.js') || !existsSync('dist/index.html')) {
    console.error("Build first: 'npm run build' (the cluster runs dist-server/server.js and serves dist/).");
    process.exit(1);
  }
  const adminPassword = process.env.ADMIN_PASSWORD || randomBytes(9).toString('base64url');
  let cluster;
  let stopping = false;
  const finish = async () => {
    await cluster.stop();
    say('stopped; its folder is removed.');
    process.exit(0);
  };
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    say('stopping…');
    // While it starts, the parts have no one to stop them yet: they stop once it has started.
    if (cluster) await finish();
  };
  // Before it starts: a Ctrl-C meanwhile must not leave the parts (each in a process group of its own) running.
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  cluster = await startCluster({ port: Number(process.env.CLUSTER_PORT ?? 4180), adminPassword, log: say }).catch((error) => {
    console.error(`[cluster] could not start: ${error.message}`);
    process.exit(1);
  });
  if (stopping) await finish();
  say(
    `ready: open ${cluster.url} (admin: admin@insightexchange.app, password ${adminPassword}). A part that exits is started again; Ctrl-C stops everything.`,
  );
}
