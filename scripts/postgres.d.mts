export function ensurePostgres(): string;
export function startPostgres(options?: {
  durable?: boolean;
}): Promise<{ url: string; port: number; pause(): void; resume(): void; stop(): void }>;
export function isRoot(): boolean;
export function freePort(): Promise<number>;
export function runAsOwner(command: string): void;
