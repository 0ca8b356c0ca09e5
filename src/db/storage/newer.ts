// Which pulled rows a device stores: those newer than its copy. A stored row carries the server's last
// word on it (`sync`, with its change number); a pulled row at or below that number changes nothing.

/** The pulled `wires` newer than the `stored` row at the same index, each with that row (undefined: new here). */
export function newerThanStored<W extends { seq: number }, R extends { sync?: { seq: number } }>(
  wires: readonly W[],
  stored: readonly (R | undefined)[],
): [W, R | undefined][] {
  return wires.flatMap((wire, index): [W, R | undefined][] => {
    const current = stored[index];
    return current?.sync && current.sync.seq >= wire.seq ? [] : [[wire, current]];
  });
}
