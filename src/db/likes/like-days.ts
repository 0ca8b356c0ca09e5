// Likes per UTC day on this device (schema version 6): the device's insights read them. A like
// counts here in the transaction that adds it (which must include `likeDays`).

import { db } from '../storage/schema';
import { dayOf } from '../../shared/utc-day';

/** Counts `count` likes for the UTC day of `now`. */
export async function countLikesToday(count = 1, now = Date.now()): Promise<void> {
  const day = dayOf(now);
  const row = await db.likeDays.get(day);
  await db.likeDays.put({ day, likes: (row?.likes ?? 0) + count });
}

/** Every day's likes (a row a day: a few hundred at most a year). */
export function readLikeDays(): Promise<{ day: string; likes: number }[]> {
  return db.likeDays.toArray();
}
