// Display names that cannot pose as someone else: the characters a name may not hold (invisible and
// direction-changing ones), the key two names are compared by (case, width and invisible characters
// ignored) and the words reserved for the staff. The device's forms, the operations' definitions and
// the server share these; uniqueness itself is the server's (users.name_key), since only it knows
// every name.

/**
 * Characters that show nothing or change how the text around them is drawn: format characters (zero
 * width space and joiners, the byte order mark, soft hyphen, the left-to-right and right-to-left
 * marks, embeddings, overrides and isolates), controls, variation selectors, the combining grapheme
 * joiner and the blank "letters" (Hangul fillers, the braille blank) that render as nothing.
 */
const FORMAT_OR_CONTROL = /[\p{Cf}\p{Cc}]/u;
/** The blank letters, and the combining marks that show nothing (kept out of a regular expression's class: they combine). */
const BLANK_CODE_POINTS: readonly (readonly [number, number])[] = [
  [0x034f, 0x034f],
  [0x115f, 0x1160],
  [0x17b4, 0x17b5],
  [0x180b, 0x180f],
  [0x2800, 0x2800],
  [0x3164, 0x3164],
  [0xfe00, 0xfe0f],
  [0xffa0, 0xffa0],
  [0xe0100, 0xe01ef],
];

/** True for one character that shows nothing or turns the text around it. */
function isInvisible(char: string): boolean {
  if (FORMAT_OR_CONTROL.test(char)) return true;
  const point = char.codePointAt(0)!;
  return BLANK_CODE_POINTS.some(([from, to]) => point >= from && point <= to);
}

/** `text` without its invisible characters (a title of only U+200B is then blank). */
export const withoutInvisible = (text: string): string => [...text].filter((char) => !isInvisible(char)).join('');

/** True when `text` holds a character that shows nothing or turns the text around it. */
export const hasInvisible = (text: string): boolean => [...text].some(isInvisible);

const SPACE = /\s/u;

/** True when `text` shows nothing: empty, spaces, or only invisible characters (stops at the first visible one). */
export function showsNothing(text: string): boolean {
  for (const char of text) if (!SPACE.test(char) && !isInvisible(char)) return false;
  return true;
}

/**
 * Letters of other scripts drawn like Latin ones (Cyrillic and Greek), read as those for comparing:
 * "Аdmin" with a Cyrillic А is the same name as "Admin". Not every look-alike in Unicode: the ones
 * keyboards and impostors actually use.
 */
const LOOK_ALIKES: Record<string, string> = {
  а: 'a',
  в: 'b',
  е: 'e',
  ё: 'e',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  і: 'i',
  ї: 'i',
  ј: 'j',
  ѕ: 's',
  ԁ: 'd',
  һ: 'h',
  ӏ: 'l',
  ԛ: 'q',
  ԝ: 'w',
  α: 'a',
  β: 'b',
  ε: 'e',
  η: 'n',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  ϲ: 'c',
};
const LOOK_ALIKE = new RegExp(`[${Object.keys(LOOK_ALIKES).join('')}]`, 'gu');

/**
 * The key two display names are compared by: compatibility-normalized (full-width "Ａｄｍｉｎ" is
 * "admin"), without invisible characters, lower case, look-alike letters read as Latin, every run of
 * spaces and punctuation one space. Two members never share a key.
 */
export function nameKey(name: string): string {
  return withoutInvisible(name.normalize('NFKC'))
    .toLowerCase()
    .normalize('NFKC')
    .replace(LOOK_ALIKE, (letter) => LOOK_ALIKES[letter]!)
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Words no member's name may hold (the admin's may): they would pass for the staff or the product. */
export const RESERVED_NAME_WORDS = ['admin', 'administrator', 'moderator', 'staff', 'system'] as const;
const RESERVED_PHRASES = ['insight exchange', 'insightexchange'];

/** Digits written for letters ("Adm1n", "M0derator"): read as the letters for the reserved words alone. */
const DIGIT_LETTERS: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't' };

/** The titles of the staff that pass for them in a plural or a compound ("Moderators", "SysAdmin", "BobAdmin"). */
const STAFF_TITLES = ['admin', 'administrator', 'moderator'];

/** What may follow a staff word in one word and still pass for the staff ("AdminTeam", "StaffBot"); a plural: a title's only ("Cisco Systems"). */
const STAFF_ENDINGS = ['team', 'teams', 'group', 'crew', 'bot', 'account', 'user', 'office', 'desk', 'support', 'help'];

/** Two letters that make a staff title of one word ("ITAdmin", "DBAdmin"); three or more always do ("SysAdmin"); one does not ("Gadmin" is a name). */
const SHORT_PREFIXES = ['it', 'db'];

/** True when one word of a name's key passes for a reserved word: digits for letters or after it, accents, a title's plural or compound. */
function passesForStaffWord(raw: string): boolean {
  const word = raw
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/(?<=\p{L})\d+$/u, '')
    .replace(/[013457]/g, (digit) => DIGIT_LETTERS[digit]!);
  if ((RESERVED_NAME_WORDS as readonly string[]).includes(word)) return true;
  if (RESERVED_NAME_WORDS.some((reserved) => word.startsWith(reserved) && STAFF_ENDINGS.includes(word.slice(reserved.length)))) return true;
  const single = word.endsWith('s') ? word.slice(0, -1) : word;
  return STAFF_TITLES.some((title) => {
    if (single === title) return true;
    if (!single.endsWith(title)) return false;
    const before = single.slice(0, -title.length);
    return before.length >= 3 || SHORT_PREFIXES.includes(before);
  });
}

/** Letters spaced out ("A d m i n", "S.t.a.f.f") read as one word, beside the words as written. */
function wordsOf(key: string): string[] {
  const words = key.split(' ');
  const joined = key.replace(/(?<=^|\s)(\p{L}|\p{N})(?: (?=(?:\p{L}|\p{N})(?:\s|$)))/gu, '$1');
  return joined === key ? words : [...words, ...joined.split(' ')];
}

/** True when `name` holds a reserved word ("Admin", "Site Admin", "admin_team", "Insight Exchange Staff"). */
export function isReservedName(name: string): boolean {
  const key = nameKey(name);
  return (
    key.split(' ').some((word) => (RESERVED_NAME_WORDS as readonly string[]).includes(word)) ||
    RESERVED_PHRASES.some((phrase) => key.includes(phrase) || key.replace(/ /g, '').includes(phrase.replace(/ /g, ''))) ||
    // What a deleted account's writing shows under (issue 41): nobody may pass for it.
    /(^| )deleted member( |$)/.test(key) ||
    key.replace(/ /g, '') === 'deletedmember'
  );
}

/**
 * A member's name that holds a reserved word or passes for one (a fourth attack test): "Moderators",
 * "SysAdmin", "AdminTeam", "Adm1n", "A d m i n". Groups' names keep isReservedName: "Moderators" is a
 * fine name for a group.
 */
export function passesForStaff(name: string): boolean {
  return isReservedName(name) || wordsOf(nameKey(name)).some(passesForStaffWord);
}
