// rename: the member's display name (validateName; the staff's words are the admin's only), unique
// among members (the server's word: `name_taken`), on their account and as the author of what they
// wrote, on every device.
import { validateMemberName } from '../validation';
import { check, defineOp, refuse } from './define';
import { displayName } from './fields';

export const rename = defineOp('rename', 5, 'member', {
  touches: 'preferences',
  keeps: 'name',
  limits: ['renames_per_day'],
  wire: (z) => ({ name: z.unknown() }),
  parse: (op) => ({ name: displayName(op.name) }),
  async run(store, actor, { name }) {
    check(validateMemberName(name, actor.role));
    if (await store.nameTaken(actor, name)) refuse('name_taken');
    await store.rename(actor, name);
  },
});
