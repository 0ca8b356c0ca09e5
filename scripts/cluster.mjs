#!/usr/bin/env node
// `npm run cluster`: Insight Exchange past one machine, on 127.0.0.1, from Debian's packages:
//
//   HAProxy (round robin, health checks on /api/health)
//     → three server instances (dist-server/server.js)
//       → PgBouncer in transaction mode → the PostgreSQL primary
//       → LISTEN on the primary directly (a listening session cannot go through a transaction pooler)
//       → pulls from a streaming replica of the primary (made with pg_basebackup) when it has
//         replayed far enough (REPLICA_URL)
//
// Everything lives in one temporary folder and stops with Ctrl-C (or SIGTERM). The tests and
// `npm run bench:cluster` use startCluster(). Traffic stays on 127.0.0.1. docs/scaling.md says how the
// same runs under systemd or Kubernetes.
//
//   CLUSTER_PORT=4180  the load balancer's port (default 4180)    ADMIN_PASSWORD  the admin's password (default: printed)
import { execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

const owned = (dir) => {
  if (!isRoot()) return;
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
  chownSync(dir, uid, gid);
};

/** Waits until `check` resolves true, at most `ms`. */
async function until(check, ms, what) {
  const end = Date.now() + ms;
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      // not yet
    }
    if (Date.now() > end) throw new Error(`${what}: not ready within ${ms} ms`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

const healthy = async (url) => (await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2_000) })).ok;

/**
 * Starts the whole topology; resolves to its handles. `serverScript` and `distDir` are the built
 * server and app (defaults: dist-server/server.js and dist).
 */
export async function startCluster({
  instances = 3,
  port,
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
  const stops = [];
  const stopAll = async () => {
    for (const stop of stops.splice(0).reverse()) {
      try {
        await stop();
      } catch (error) {
        log(`stopping: ${error.message}`);
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    // The primary and its replica: two local clusters.
    const primaryPort = await freePort();
    const replicaPort = await freePort();
    const pgOptions = (pgPort) =>
      [
        `-p ${pgPort}`,
        `-k ${dir}`,
        '-c listen_addresses=127.0.0.1',
        '-c max_connections=300',
        '-c wal_level=replica',
        '-c hot_standby=on',
      ].join(' ');
    const pg = (data, pgPort) => ({
      start: () => runAsOwner(`${bin}/pg_ctl -D ${data} -l ${data}.log -o "${pgOptions(pgPort)}" -w start >/dev/null`),
      stop: (mode = 'fast') => runAsOwner(`${bin}/pg_ctl -D ${data} -m ${mode} -w stop >/dev/null`),
    });
    runAsOwner(`${bin}/initdb -D ${dir}/primary -A trust -U postgres >/dev/null`);
    const primary = pg(`${dir}/primary`, primaryPort);
    primary.start();
    stops.push(() => primary.stop('immediate'));
    log(`primary: PostgreSQL on 127.0.0.1:${primaryPort}`);
    runAsOwner(`${bin}/pg_basebackup -h 127.0.0.1 -p ${primaryPort} -U postgres -D ${dir}/replica -R -X stream -c fast`);
    const replica = pg(`${dir}/replica`, replicaPort);
    replica.start();
    stops.push(() => replica.stop('immediate'));
    log(`replica: PostgreSQL on 127.0.0.1:${replicaPort} (streaming from the primary, made with pg_basebackup)`);

    // PgBouncer in transaction mode, in front of the primary.
    const bouncerPort = await freePort();
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
        `logfile = ${dir}/pgbouncer.log`,
        `pidfile = ${dir}/pgbouncer.pid`,
        '',
      ].join('\n'),
    );
    owned(`${dir}/pgbouncer.ini`);
    owned(`${dir}/userlist.txt`);
    const bouncer = {
      start: async () => {
        runAsOwner(`${tools.pgbouncer} -d -q ${dir}/pgbouncer.ini`);
        await until(() => existsSync(`${dir}/pgbouncer.pid`), 10_000, 'PgBouncer');
      },
      stop: async () => {
        const pid = Number(readFileSync(`${dir}/pgbouncer.pid`, 'utf8').trim());
        process.kill(pid, 'SIGINT');
        await until(() => !existsSync(`${dir}/pgbouncer.pid`), 10_000, 'PgBouncer stopping');
      },
    };
    await bouncer.start();
    stops.push(() => bouncer.stop());
    log(`PgBouncer: transaction mode on 127.0.0.1:${bouncerPort}`);

    // The load balancer's port, then the instances (their Origin check knows it).
    const lbPort = port ?? (await freePort());
    const lbUrl = `http://127.0.0.1:${lbPort}`;
    const databaseUrl = `postgres://postgres@127.0.0.1:${bouncerPort}/postgres`;
    const primaryUrl = `postgres://postgres@127.0.0.1:${primaryPort}/postgres`;
    const replicaUrl = `postgres://postgres@127.0.0.1:${replicaPort}/postgres`;
    const servers = [];
    for (let index = 0; index < instances; index += 1) {
      const serverPort = await freePort();
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
      const instance = {
        name: `instance-${index + 1}`,
        port: serverPort,
        url: `http://127.0.0.1:${serverPort}`,
        child: undefined,
        output: '',
        async start() {
          const child = spawn(process.execPath, [serverScript], { env: instanceEnv, stdio: ['ignore', 'pipe', 'pipe'] });
          instance.child = child;
          instance.exited = new Promise((done) => child.once('exit', (code, signal) => done(code ?? signal)));
          const keep = (chunk) => {
            instance.output = (instance.output + chunk.toString()).slice(-20_000);
          };
          child.stdout.on('data', keep);
          child.stderr.on('data', keep);
          await until(() => healthy(instance.url), 60_000, `${instance.name}\n${instance.output}`);
        },
        /**
         * Stops it with `signal` (SIGKILL: a crash) and resolves once it has exited; one that has not
         * closed 20 s after SIGTERM is killed (and said so), so a stop never hangs.
         */
        async kill(signal = 'SIGTERM') {
          const child = instance.child;
          if (!child || child.exitCode !== null || child.signalCode !== null) return;
          child.kill(signal);
          const late = setTimeout(() => {
            log(`${instance.name} did not close within 20 s of ${signal}: killed`);
            child.kill('SIGKILL');
          }, 20_000);
          await instance.exited;
          clearTimeout(late);
        },
      };
      servers.push(instance);
    }
    // Started one after another: the first runs the migrations (the others find them done).
    stops.push(() => Promise.all(servers.map((instance) => instance.kill('SIGTERM'))));
    for (const instance of servers) {
      await instance.start();
      log(`${instance.name}: ${instance.url}`);
    }

    // HAProxy in front of them.
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
        `  http-check send meth GET uri /api/health ver HTTP/1.1 hdr Host 127.0.0.1:${lbPort}`,
        '  http-check expect status 200',
        '  retries 2',
        '  option redispatch',
        '  default-server inter 500ms fall 2 rise 2',
        ...servers.map((instance) => `  server ${instance.name} 127.0.0.1:${instance.port} check`),
        '',
      ].join('\n'),
    );
    const haproxy = spawn(tools.haproxy, ['-db', '-f', `${dir}/haproxy.cfg`], { stdio: ['ignore', 'pipe', 'pipe'] });
    let haproxyOutput = '';
    haproxy.stdout.on('data', (chunk) => (haproxyOutput += chunk));
    haproxy.stderr.on('data', (chunk) => (haproxyOutput += chunk));
    const haproxyExited = new Promise((done) => haproxy.once('exit', done));
    stops.push(async () => {
      if (haproxy.exitCode === null) {
        haproxy.kill('SIGTERM');
        await haproxyExited;
      }
    });
    await until(() => healthy(lbUrl), 20_000, `HAProxy\n${haproxyOutput}\n${servers.map((instance) => instance.output).join('\n')}`);
    log(`HAProxy: ${lbUrl} → ${servers.length} instances`);

    return {
      url: lbUrl,
      dir,
      adminPassword,
      primary: { url: primaryUrl, port: primaryPort, ...primary },
      replica: { url: replicaUrl, port: replicaPort, ...replica },
      bouncer: { url: databaseUrl, port: bouncerPort, ...bouncer },
      instances: servers,
      /** Stops every part (instances, HAProxy, PgBouncer, both PostgreSQL clusters) and removes the folder. */
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
  const cluster = await startCluster({ port: Number(process.env.CLUSTER_PORT ?? 4180), adminPassword, log: say }).catch((error) => {
    console.error(`[cluster] could not start: ${error.message}`);
    process.exit(1);
  });
  say(`ready: open ${cluster.url} (admin: admin@insightexchange.app, password ${adminPassword}). Ctrl-C stops everything.`);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    say('stopping…');
    await cluster.stop();
    say('stopped; its folder is removed.');
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
