export function ensurePostgres(): string;
export function startPostgres(options?: { durable?: boolean }): Promise<{ url: string; port: number; stop(): void }>;
