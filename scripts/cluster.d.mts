import type { ChildProcess } from 'node:child_process';

/** A part of the cluster that the supervisor keeps running (scripts/cluster.mjs, supervised()). */
export interface ClusterPart {
  name: string;
  port: number;
  url: string;
  child?: ChildProcess;
  output: string;
  /** How many times the supervisor started it again. */
  restarts: number;
  /** Starts it and waits until it serves (also after stop()). */
  start(ms?: number): Promise<void>;
  /** Stops it and keeps it stopped; resolves once it exited. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** A fault: signals it (SIGKILL by default) and resolves once it exited; the supervisor starts it again. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Waits until it serves again. */
  up(ms?: number): Promise<void>;
}

export type ClusterInstance = ClusterPart;
export type ClusterDatabase = ClusterPart;

export interface Cluster {
  url: string;
  dir: string;
  adminPassword: string;
  primary: ClusterDatabase;
  replica: ClusterDatabase;
  bouncer: ClusterPart;
  haproxy: ClusterPart;
  instances: ClusterInstance[];
  stop(): Promise<void>;
}

export function ensureClusterTools(): { haproxy: string; pgbouncer: string };
export function restartDelay(failures: number): number;
export function startCluster(options?: {
  instances?: number;
  port?: number;
  portBase?: number;
  serverScript?: string;
  distDir?: string;
  adminPassword?: string;
  env?: Record<string, string>;
  log?: (line: string) => void;
}): Promise<Cluster>;
