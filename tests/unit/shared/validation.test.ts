import { describe, expect, it } from 'vitest';
import { LIMITS, parseTags } from '../../../src/shared/post-rules';
import {
  hasUnstorableText,
  validateFlag,
  validateName,
  validateNewPost,
  validateReason,
  validateReply,
  validateSignIn,
  validateSignUp,
  validateTags,
  validateChangeEmail,
  validateEmailAddress,
  EMAIL_FORMAT_MESSAGE,
} from '../../../src/shared/validation';
import { emailSchema } from '../../../src/shared/protocol';

describe('validateSignIn', () => {
  it('asks for both fields with the catalogue message', () => {
    const expected = { code: 'invalid', title: 'Error', message: 'Please enter email and password.' };
    expect(validateSignIn('', 'secret')).toEqual(expected);
    expect(validateSignIn('   ', 'secret')).toEqual(expected);
    expect(validateSignIn('a@b.co', '')).toEqual(expected);
  });

  it('accepts any email with a password (no format or strength rule)', () => {
    expect(validateSignIn('a@b.co', 'x')).toBeNull();
  });
});

describe('an email address in a form (Change email, Forgot password, the server’s schema)', () => {
  it('says what is wrong in words: none given, not shaped like an address, no password to change it', () => {
    expect(validateEmailAddress('  ')?.message).toBe('Enter an email address.');
    for (const bad of ['lena@@bad', 'not an email', 'lena@example', '@example.com'])
      expect(validateEmailAddress(bad)?.message, bad).toBe(EMAIL_FORMAT_MESSAGE);
    expect(validateEmailAddress(' lena@example.com ')).toBeNull();
    expect(validateChangeEmail('lena@@bad', '')?.message).toBe(EMAIL_FORMAT_MESSAGE);
    expect(validateChangeEmail('lena@example.com', '')?.message).toBe('Enter your current password to change your email.');
    expect(validateChangeEmail('lena@example.com', 'secret')).toBeNull();
  });

  it('the server’s schema answers with the same sentence, never zod’s "Invalid email address"', () => {
    // The shared rule's refusal, and zod's stricter one of what the rule lets by: the same sentence.
    for (const bad of ['lena@@bad', 'a@b.c', 'lena..x@example.com', '.a@example.com']) {
      const refused = emailSchema.safeParse(bad);
      expect(refused.success, bad).toBe(false);
      expect(refused.error?.issues, bad).toEqual([expect.objectContaining({ code: 'custom', message: EMAIL_FORMAT_MESSAGE })]);
    }
    expect(emailSchema.parse(' Lena@Example.com ')).toBe('lena@example.com');
  });
});

describe('validateSignUp', () => {
  it('asks for all three fields with the catalogue message', () => {
    const expected = { code: 'invalid', title: 'Error', message: 'Please fill all fields.' };
    expect(validateSignUp('', 'a@b.co', 'pw')).toEqual(expected);
    expect(validateSignUp('Ann', ' ', 'pw')).toEqual(expected);
    expect(validateSignUp('Ann', 'a@b.co', '')).toEqual(expected);
    expect(validateSignUp('Ann', 'a@b.co', 'pw')).toBeNull();
  });

  it('refuses a name past the limit with a clear message', () => {
    expect(validateSignUp('x'.repeat(LIMITS.name + 1), 'a@b.co', 'pw')?.message).toContain('at most 100 characters');
  });
});

describe('validateNewPost', () => {
  it('needs title and content after trimming', () => {
    const expected = { code: 'invalid', title: 'Missing Information', message: 'Please fill in both title and content for your post.' };
    expect(validateNewPost('  ', 'body')).toEqual(expected);
    expect(validateNewPost('Title', '\n\t ')).toEqual(expected);
    expect(validateNewPost('Title', 'body')).toBeNull();
  });

  it('enforces the form limits of 200 and 20,000 characters', () => {
    expect(validateNewPost('t'.repeat(200), 'c'.repeat(20_000))).toBeNull();
    expect(validateNewPost('t'.repeat(201), 'body')).toEqual({
      code: 'invalid',
      title: 'Title is too long',
      message: 'Title can be at most 200 characters (it has 201).',
    });
    expect(validateNewPost('Title', 'c'.repeat(20_001))?.title).toBe('Content is too long');
  });
});

describe('text no database can store', () => {
  it('finds a NUL and a lone surrogate, and nothing in well-formed text (emoji included)', () => {
    for (const bad of ['a\0b', 'x\uD83Dy', 'x\uDE00', '\uDE00\uD83D']) expect(hasUnstorableText(bad), JSON.stringify(bad)).toBe(true);
    for (const good of ['plain', 'émigré', 'chart 📈 up', '\uD83D\uDE00']) expect(hasUnstorableText(good), good).toBe(false);
  });

  it('refuses it in a title, content and tag with a sentence that names the field', () => {
    expect(validateNewPost('Bad\0title', 'body')?.message).toMatch(/^Title holds a character that cannot be stored/);
    expect(validateNewPost('Title', 'half \uD83D')?.title).toBe('Content cannot be saved');
    expect(validateTags(['fine', 'bro\uDE00ken'])?.message).toMatch(/^A tag holds a character/);
    expect(validateSignUp('Ann\0', 'a@b.co', 'pw')?.title).toBe('Name cannot be saved');
  });
});

describe('one line, and nothing hidden (issue 59, item 5)', () => {
  it('a title is one line: a line break inside it is refused with a sentence (one at either end is trimmed away)', () => {
    for (const title of ['Line one\r\nBcc: x@example.com', 'Line one\nLine two', 'a\u2028b', 'a\rb'])
      expect(validateNewPost(title, 'body'), JSON.stringify(title)).toEqual({
        code: 'invalid',
        title: 'Title is one line',
        message: 'Title cannot hold a line break. Write it on one line.',
      });
    expect(validateNewPost('  Title\n', 'body')).toBeNull();
    expect(validateNewPost('Title', 'Line one\r\nLine two\n\n\tindented')).toBeNull();
    expect(validateTags(['two\nlines'])?.title).toBe('A tag is one line');
  });

  it('refuses invisible and direction-changing characters in every text a member writes, naming the character', () => {
    const hidden = [
      '\u202E',
      '\u202A',
      '\u2066',
      '\u2069',
      '\u200B',
      '\u200E',
      '\u200F',
      '\u2060',
      '\u2064',
      '\uFEFF',
      '\u061C',
      '\u00AD',
      '\u0007',
    ];
    for (const char of hidden) {
      const code = `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
      expect(validateNewPost(`report${char}gnp.exe`, 'body')?.message, code).toBe(
        `Title holds an invisible or direction-changing character (${code}, often from a paste). Remove it and try again.`,
      );
      expect(validateNewPost('Title', `a${char}b`)?.title, code).toBe('Content cannot be saved');
      expect(validateReply(`a${char}b`)?.title, code).toBe('Reply cannot be saved');
      expect(validateTags([`a${char}b`])?.title, code).toBe('A tag cannot be saved');
      expect(validateFlag('other', `a${char}b`)?.title, code).toBe('Your words cannot be saved');
      expect(validateReason(`a${char}b`)?.title, code).toBe('Reason cannot be saved');
      expect(validateName(`a${char}b`)?.title, code).toBe('Name cannot be used');
    }
  });

  it('keeps what is written with joiners on purpose: emoji sequences and the scripts that join letters (a deliberate choice)', () => {
    const meant = [
      'Team 👩\u200D💻 and 👨\u200D👩\u200D👧', // pictograph, ZWJ, pictograph
      'Love ❤\uFE0F\u200D🔥', // a variation selector before the joiner
      'Wave 👋🏽\u200D', // ...but a joiner that joins nothing is hidden
    ];
    expect(validateNewPost(meant[0]!, meant[1]!)).toBeNull();
    expect(validateNewPost('Title', meant[2]!)?.title).toBe('Content cannot be saved');
    expect(validateNewPost('🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F} fans', 'body')).toBeNull();
    expect(validateNewPost('Title', 'tag \u{E0067} alone')?.title).toBe('Content cannot be saved');
    expect(validateReply('می\u200Cخواهم and क्\u200Dष')).toBeNull();
    // Between two Latin letters a joiner only hides something.
    expect(validateReply('pay\u200Cpal')?.title).toBe('Reply cannot be saved');
  });
});

describe("parseTags (the composer's Tags field)", () => {
  it('splits on commas, trims, drops a leading # and empty tags, keeps a repeat once (first spelling)', () => {
    expect(parseTags(' MaxDiff, #Pricing,, maxdiff ,##B2B ')).toEqual(['MaxDiff', 'Pricing', 'B2B']);
    expect(parseTags('')).toEqual([]);
    expect(parseTags(' , # ,')).toEqual([]);
    expect(parseTags('Conjoint analysis')).toEqual(['Conjoint analysis']);
  });

  it('leaves the limits to validateTags, whose sentence says which is wrong', () => {
    expect(validateTags(parseTags(Array.from({ length: 11 }, (_, index) => `t${index}`).join(',')))?.message).toBe(
      'Tags: at most 10, each at most 40 characters and not empty. There are 11.',
    );
    expect(validateTags(parseTags(`MaxDiff, ${'pricing'.repeat(6)}`))?.message).toBe(
      'Tags: at most 10, each at most 40 characters and not empty. “pricingpricingpricin…” has 42.',
    );
    expect(validateTags(parseTags('a,b,c'))).toBeNull();
  });
});
