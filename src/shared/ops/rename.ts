// rename: the member's display name (validateName), on their account and as the author of what they
// wrote, on every device.
import { defineOp } from './define';
import { displayName } from './fields';

export const rename = defineOp({
  type: 'rename',
  since: 5,
  wire: (z) => ({ name: z.unknown() }),
  parse: (op) => ({ name: displayName(op.name) }),
  who: 'member',
  async run(store, actor, { name }) {
    await store.rename(actor, name);
  },
});
