// A json or jsonb value as the drivers hand it over: parsed already (pg, PGlite) or as text
// (json_agg, some drivers, a value read through a text cast). One reading for every such column.

export const parsedJson = (value: unknown): unknown => (typeof value === 'string' ? (JSON.parse(value) as unknown) : value);
