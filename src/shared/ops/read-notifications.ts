// readNotifications: a member marks their own notifications read (on every device of theirs, once
// synced); anyone else's ids change nothing. At most MAX_READ_IDS at once (a device sends several).
import { MAX_READ_IDS } from '../moderation';
import { defineOp } from './define';

export const readNotifications = defineOp('readNotifications', 4, 'member', {
  touches: 'notifications',
  whileSilenced: true,
  wire: (z, f) => ({ ids: z.array(f.uuid).min(1).max(MAX_READ_IDS) }),
  parse: (op) => ({ ids: op.ids }),
  run: (store, actor, { ids }, context) => store.readNotifications(actor, ids, context.now),
});
