// setTheme: the member's theme (System, Light or Dark) follows them to every device.
import { isTheme, THEMES } from '../theme';
import { defineOp, refuseInput } from './define';

export const setTheme = defineOp('setTheme', 5, 'member', {
  touches: 'preferences',
  whileSilenced: true,
  wire: (z) => ({ theme: z.enum(THEMES) }),
  parse(op) {
    if (!isTheme(op.theme)) refuseInput({ code: 'invalid', title: 'Error', message: 'Choose System, Light or Dark.' });
    return { theme: op.theme };
  },
  run: (store, actor, { theme }) => store.setTheme(actor, theme),
});
