// Names that cannot pose as someone else: the key they are compared by, the staff's words, and the
// characters that show nothing (they make a title blank and are refused in a name).
import { describe, expect, it } from 'vitest';
import { hasInvisible, isReservedName, nameKey, passesForStaff, showsNothing, withoutInvisible } from '../../../src/shared/names';
import { validateMemberName, validateName, validateNewPost } from '../../../src/shared/validation';

describe('nameKey', () => {
  it('ignores case, width, invisible characters, look-alike letters and runs of spaces and punctuation', () => {
    const key = nameKey('Jane Doe');
    for (const same of [
      'jane doe',
      'JANE DOE',
      'Ｊａｎｅ Ｄｏｅ',
      'Jane  Doe',
      ' Jane Doe ',
      'Ja\u200Bne Doe',
      'Jane\u00A0Doe',
      'Jаne Doe',
      'Jane_Doe',
      'Jane-Doe',
    ])
      expect(nameKey(same), JSON.stringify(same)).toBe(key);
    for (const other of ['Jane Doe 2', 'Janet Doe', 'Jan Doe']) expect(nameKey(other)).not.toBe(key);
  });
});

describe('the staff’s words', () => {
  it('are refused for members in any case, width, script or with punctuation around them', () => {
    for (const reserved of [
      'Admin',
      'ADMIN',
      'Ａｄｍｉｎ',
      'Аdmin',
      'admin_team',
      'Site Administrator',
      'Moderator',
      'The Staff',
      'System',
      'Insight Exchange',
      'insightexchange help',
      'Insight-Exchange',
    ])
      expect([isReservedName(reserved), passesForStaff(reserved)], reserved).toEqual([true, true]);
    // A member's name: plurals, words joined and letters spaced out or written as digits (a fourth
    // attack test). A group may be named so ("Moderators").
    for (const member of [
      'SysAdmin',
      'SysAdmins',
      'Site Moderators',
      'Admins',
      'The Administrators',
      'AdminTeam',
      'Moderators',
      'Adm1n',
      'A d m i n',
      'S.T.A.F.F',
      'ModeratorBot',
      // A second review: titles after a name or a word, digits after, accents, staff and system compounds.
      'SystemAdmin',
      'TheAdmin',
      'BobAdmin',
      'ITAdmin',
      'StaffTeam',
      'StaffBot',
      'SystemAccount',
      'Admin1',
      'Moderator2',
      'Admín',
    ])
      expect([isReservedName(member), passesForStaff(member)], member).toEqual([false, true]);
    for (const deleted of ['Deleted Member', 'deleted_member', 'DeletedMember', 'The Deleted Member'])
      expect(isReservedName(deleted), deleted).toBe(true);
    for (const fine of [
      'Undeleted Membership',
      'Badminton Fan',
      'Systematic Sam',
      'Staffordshire Analyst',
      'Insightful Exchange',
      'Ada Minsky',
      'Ecosystem Partners',
      'Stafford Lee',
      'Mo Derator',
      'J R R Tolkien',
      'Agent 007',
      'Cisco Systems',
      'Cadence Design Systems',
      'IT Systems',
      'Staffs Police',
      'Steve Staffer',
      'Gadmin',
      'Sadmin Khan',
      'Applied Biosystems',
      'Administration Office',
      'A. D. Min',
      'Sun Microsystems',
      'Nadmin Rahimi',
      'Kadmin',
      'Stafford Smith',
    ])
      expect([isReservedName(fine), passesForStaff(fine)], fine).toEqual([false, false]);
    expect(validateMemberName('Admin', 'user')?.message).toBe('This name is kept for the forum’s staff. Choose another one.');
    expect(validateMemberName('Admin', 'admin')).toBeNull();
  });
});

describe('characters that show nothing', () => {
  it('are found and removed: zero-width, bidirectional controls, byte order mark, soft hyphen, Hangul fillers, variation selectors', () => {
    for (const char of [
      '\u200B',
      '\u200C',
      '\u200D',
      '\u2060',
      '\uFEFF',
      '\u00AD',
      '\u202E',
      '\u2066',
      '\u200F',
      '\u3164',
      '\u115F',
      '\uFE0F',
      '\u034F',
      '\u2800',
    ])
      expect(hasInvisible(`a${char}b`), char.codePointAt(0)!.toString(16)).toBe(true);
    expect(withoutInvisible('a\u200Bb\u202Ec')).toBe('abc');
    expect(hasInvisible('Zoë Ångström 李小龍')).toBe(false);
  });

  it('make a title or a text blank, and are refused in a name', () => {
    expect(showsNothing('\u200B')).toBe(true);
    expect(showsNothing(' \u200B\u200D \u3164 ')).toBe(true);
    expect(showsNothing('\u200Bx')).toBe(false);
    expect(validateNewPost('\u200B', 'Some content.')?.message).toBe('Please fill in both title and content for your post.');
    expect(validateNewPost('A title', '\u200B\u200B')?.message).toBe('Please fill in both title and content for your post.');
    expect(validateName('\u200B\u200B')?.message).toBe('Please fill all fields.');
    expect(validateName('Bob\u202E')?.message).toBe(
      'Name holds an invisible or direction-changing character (often from a paste). Type the name without it.',
    );
    expect(validateName('Zoë Ångström')).toBeNull();
  });
});
