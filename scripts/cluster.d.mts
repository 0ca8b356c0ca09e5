import type { ChildProcess } from 'node:child_process';

export interface ClusterInstance {
  name: string;
  port: number;
  url: string;
  child?: ChildProcess;
  output: string;
  start(): Promise<void>;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export interface ClusterDatabase {
  url: string;
  port: number;
  start(): void | Promise<void>;
  stop(mode?: string): void | Promise<void>;
}

export interface Cluster {
  url: string;
  dir: string;
  adminPassword: string;
  primary: ClusterDatabase;
  replica: ClusterDatabase;
  bouncer: ClusterDatabase;
  instances: ClusterInstance[];
  stop(): Promise<void>;
}

export function ensureClusterTools(): { haproxy: string; pgbouncer: string };
export function startCluster(options?: {
  instances?: number;
  port?: number;
  serverScript?: string;
  distDir?: string;
  adminPassword?: string;
  env?: Record<string, string>;
  log?: (line: string) => void;
}): Promise<Cluster>;
