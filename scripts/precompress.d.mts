/** Writes the .br and .gz copies of every compressible file of `dist` (text, 1 KB or more); resolves to their sizes. */
export function precompress(dist: string): Promise<{ raw: number; br: number; gzip: number }[]>;
