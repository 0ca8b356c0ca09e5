// setTheme: the member's theme (System, Light or Dark) follows them to every device.
import { isTheme, THEMES } from '../theme';
import { defineOp, refuseInput } from './define';

export const setTheme = defineOp({
  type: 'setTheme',
  since: 5,
  wire: (z) => ({ theme: z.enum(THEMES) }),
  parse(op) {
    if (!isTheme(op.theme)) refuseInput({ code: 'invalid', title: 'Error', message: 'Choose System, Light or Dark.' });
    return { theme: op.theme };
  },
  who: 'member',
  async run(store, actor, { theme }) {
    await store.setTheme(actor, theme);
  },
});
