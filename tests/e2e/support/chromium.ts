// How the tests start Debian's Chromium (as root, with no network beyond localhost): the same
// flags as npm test and the benchmark.
export { CHROMIUM_ARGS } from '../../../scripts/chromium.mjs';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
