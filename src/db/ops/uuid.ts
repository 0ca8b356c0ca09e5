// Operation ids: random version-4 UUIDs. crypto.randomUUID exists only in secure contexts; queuing
// a write must never fail for want of one (a phone on plain http reaches the server online, though
// without a service worker or offline sign-in), so this uses getRandomValues, which exists anywhere.

/** A random RFC 4122 version-4 UUID. */
export function newOperationId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
