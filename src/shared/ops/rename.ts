// rename: the member's display name (validateName), on their account and as the author of what they
// wrote, on every device.
import { defineOp } from './define';
import { displayName } from './fields';

export const rename = defineOp('rename', 5, 'member', {
  wire: (z) => ({ name: z.unknown() }),
  parse: (op) => ({ name: displayName(op.name) }),
  run: (store, actor, { name }) => store.rename(actor, name),
});
