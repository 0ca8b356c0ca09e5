// Every email the product sends: a subject, a plain-text part and an HTML part, each naming the
// product and carrying its links absolute, built from the origin people reach the server at
// (PUBLIC_ORIGIN, or the server's own). What a member wrote (a name, a post's title, a reason) is
// escaped in the HTML part; nothing from a request's Host header ever reaches a link.
import { notificationDetail, notificationPath, notificationTitle, type Notification } from '../../src/shared/moderation';

export const PRODUCT = 'Insight Exchange';

export interface MailContent {
  subject: string;
  text: string;
  html: string;
  /** Extra headers (List-Unsubscribe for notifications). */
  headers?: Record<string, string>;
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);

/** A line of a list: its words, an optional line under them, an optional link. */
interface Item {
  text: string;
  detail?: string;
  url?: string;
}

interface Block {
  /** Paragraphs of plain text (escaped in the HTML part). */
  paragraphs: string[];
  /** The one button of the message, and where it leads. */
  action?: { label: string; url: string };
  /** Lines after the button (plain text). */
  after?: string[];
  /** A list (each item a line, with an optional link). */
  items?: Item[];
  /** Lists under headings, after `items` (the digest's watched posts, watched categories and tags, the rest). */
  sections?: { heading: string; items: Item[] }[];
  /** The footer's unsubscribe link, for notification emails. */
  unsubscribe?: string;
}

/** A list in the plain-text part: a line each, its link under it, a blank line after the list. */
const textList = (items: Item[]): string[] =>
  items.length === 0
    ? []
    : [...items.flatMap((item) => [`- ${item.text}${item.detail ? ` (${item.detail})` : ''}`, ...(item.url ? [`  ${item.url}`] : [])]), ''];

/** A list in the HTML part (nothing when empty). */
const htmlList = (items: Item[]): string =>
  items.length === 0
    ? ''
    : `<ul style="padding-left:20px;margin:0 0 16px">${items
        .map(
          (item) =>
            `<li style="margin-bottom:8px">${item.url ? `<a href="${escapeHtml(item.url)}">${escapeHtml(item.text)}</a>` : escapeHtml(item.text)}${
              item.detail ? `<br><span style="color:#6c757d">${escapeHtml(item.detail)}</span>` : ''
            }</li>`,
        )
        .join('')}</ul>`;

/** One message in both parts from the same blocks, so the two never say different things. */
function compose(subject: string, greeting: string, block: Block, headers?: Record<string, string>): MailContent {
  const text = [
    greeting,
    '',
    ...block.paragraphs.flatMap((line) => [line, '']),
    ...textList(block.items ?? []),
    ...(block.sections ?? []).flatMap((section) => (section.items.length ? [section.heading, '', ...textList(section.items)] : [])),
    ...(block.action ? [`${block.action.label}: ${block.action.url}`, ''] : []),
    ...(block.after ?? []).flatMap((line) => [line, '']),
    `— ${PRODUCT}`,
    ...(block.unsubscribe ? ['', `Stop these emails: ${block.unsubscribe}`] : []),
  ].join('\n');
  const p = (line: string) => `<p style="margin:0 0 16px">${escapeHtml(line)}</p>`;
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px;background:#f4f6f8;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#212529">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:24px">
<p style="margin:0 0 24px;font-weight:700;color:#0d6efd">${PRODUCT}</p>
${p(greeting)}
${block.paragraphs.map(p).join('\n')}
${htmlList(block.items ?? [])}
${(block.sections ?? [])
  .filter((section) => section.items.length)
  .map((section) => `<h2 style="margin:0 0 8px;font-size:16px">${escapeHtml(section.heading)}</h2>\n${htmlList(section.items)}`)
  .join('\n')}
${
  block.action
    ? `<p style="margin:0 0 16px"><a href="${escapeHtml(block.action.url)}" style="display:inline-block;background:#0d6efd;color:#ffffff;text-decoration:none;padding:10px 18px;border-radius:6px">${escapeHtml(block.action.label)}</a></p>
<p style="margin:0 0 16px;font-size:13px;color:#6c757d">Or open this link: ${escapeHtml(block.action.url)}</p>`
    : ''
}
${(block.after ?? []).map(p).join('\n')}
<p style="margin:24px 0 0;font-size:13px;color:#6c757d">— ${PRODUCT}${
    block.unsubscribe ? ` · <a href="${escapeHtml(block.unsubscribe)}" style="color:#6c757d">Stop these emails</a>` : ''
  }</p>
</div></body></html>
`;
  return { subject, text, html, ...(headers ? { headers } : {}) };
}

const hello = (name: string) => `Hello ${name},`;

/** Create Account (or a changed address): confirm it. */
export const confirmEmail = (name: string, url: string): MailContent =>
  compose(`Confirm your email for ${PRODUCT}`, hello(name), {
    paragraphs: [
      `Confirm that this is your email address, so that ${PRODUCT} can tell you when someone replies and help you back in if you forget your password.`,
    ],
    action: { label: 'Confirm email', url },
    after: ['The link works for 24 hours. If you did not create an account, you can ignore this email.'],
  });

/** Create Account: the link that confirms the address and creates the account (issue 59). */
export const finishSignUp = (name: string, url: string): MailContent =>
  compose(`Finish creating your ${PRODUCT} account`, hello(name), {
    paragraphs: [
      `Confirm that this is your email address to finish creating your ${PRODUCT} account: the link asks for the password you chose. You are signed in once you do.`,
    ],
    action: { label: 'Confirm email and sign in', url },
    after: ['The link works once, for 24 hours. If you did not create an account, you can ignore this email: no account is made.'],
  });

/** Someone tried to create an account with an address that has one. */
export const signUpAttempt = (name: string, signInUrl: string, resetUrl: string): MailContent =>
  compose(`Someone tried to create an account with your email`, hello(name), {
    paragraphs: [
      `Someone tried to create a new ${PRODUCT} account with this email address, which already has one. Nothing was changed.`,
      `If it was you, sign in instead (${signInUrl}), or set a new password if you forgot it.`,
    ],
    action: { label: 'Reset password', url: resetUrl },
    after: ['If it was not you, you can ignore this email.'],
  });

/** Forgot password: the single-use link. */
export const resetPassword = (name: string, url: string, minutes: number): MailContent =>
  compose(`Reset your ${PRODUCT} password`, hello(name), {
    paragraphs: [`Someone (we hope you) asked to reset your ${PRODUCT} password.`],
    action: { label: 'Set a new password', url },
    after: [
      `The link works once, for ${minutes} minutes. Setting a new password signs you out of every other device.`,
      'If you did not ask, you can ignore this email: your password stays as it is.',
    ],
  });

/** The password was changed (by the member, or through a reset link). */
export const passwordChanged = (name: string, resetUrl: string): MailContent =>
  compose(`Your ${PRODUCT} password was changed`, hello(name), {
    paragraphs: [`Your ${PRODUCT} password was just changed, and your other devices were signed out.`],
    after: [`If you did not do this, reset your password now: ${resetUrl}`],
  });

/** Change email (issue 59): sent to the new address; nothing changes until its link is used. */
export const changeEmail = (name: string, url: string): MailContent =>
  compose(`Confirm your new email for ${PRODUCT}`, hello(name), {
    paragraphs: [`Someone (we hope you) asked to use this address for their ${PRODUCT} account. Confirm it to make the change.`],
    action: { label: 'Confirm new email', url },
    after: ['The link works once, for 24 hours. If you did not ask, you can ignore this email: nothing changes.'],
  });

/** The address was changed: the old address hears of it, with the new one half hidden. */
/** Change email was asked for: the address the account has hears of it before anything changes. */
export const emailChangeAsked = (name: string, maskedEmail: string, passwordUrl: string): MailContent =>
  compose(`Someone asked to change your ${PRODUCT} email`, hello(name), {
    paragraphs: [
      `Someone signed in to your ${PRODUCT} account asked to move it to ${maskedEmail}. Nothing changes unless the link sent there is used within its time.`,
    ],
    after: [`If this wasn't you, change your password now: it cancels the change and signs out every other device. ${passwordUrl}`],
  });

export const emailChanged = (name: string, maskedEmail: string, resetUrl: string): MailContent =>
  compose(`Your ${PRODUCT} email was changed`, hello(name), {
    paragraphs: [`Your ${PRODUCT} account's email was changed to ${maskedEmail}. Emails now go there.`],
    after: [`If this wasn't you, reset your password now: ${resetUrl}`],
  });

/** RFC 8058's headers: the one-click unsubscribe link, posted to by mail programs. */
export const unsubscribeHeaders = (url: string) => ({
  'List-Unsubscribe': `<${url}>`,
  'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
});

type NoteLine = Pick<Notification, 'kind' | 'actor' | 'postTitle' | 'reason' | 'postId' | 'replyId' | 'count'>;

/** Told of a new reply in a post: "replied" to their post, or a reply in a post they watch (issue 62). */
const ofReply = (note: NoteLine) => note.replyId !== null && (note.kind === 'replied' || note.kind === 'watching');

/** "3 new replies in “title”". */
const newReplies = (count: number, title: string) =>
  `${count.toLocaleString('en-US')} new ${count === 1 ? 'reply' : 'replies'} in “${title}”`;

/**
 * The notifications as email lines, newest first: the replies of one post are one line (a
 * conversation is never listed once per reply), its newest reply's words when it is one, else
 * "N new replies in “title”", leading to the newest; every other notification a line of its own.
 */
export function noteItems(origin: string, notes: NoteLine[]): Item[] {
  const replies = new Map<number, number>();
  for (const note of notes) if (ofReply(note)) replies.set(note.postId, (replies.get(note.postId) ?? 0) + (note.count ?? 1));
  const listed = new Set<number>();
  const items: Item[] = [];
  for (const note of notes) {
    if (ofReply(note)) {
      if (listed.has(note.postId)) continue;
      listed.add(note.postId);
    }
    const count = ofReply(note) ? replies.get(note.postId)! : 1;
    items.push({
      text: count > 1 ? newReplies(count, note.postTitle) : notificationTitle(note),
      detail: notificationDetail(note) || undefined,
      url: `${origin}${notificationPath(note)}`,
    });
  }
  return items;
}

/** When I'm away: what the member has not read, grouped in one message (one line per conversation). */
export function awayNotifications(name: string, origin: string, notes: NoteLine[], unsubscribe: string): MailContent {
  const items = noteItems(origin, notes);
  const subject = items.length === 1 ? items[0]!.text : `${items.length} new notifications on ${PRODUCT}`;
  return compose(
    subject,
    hello(name),
    {
      paragraphs: [
        items.length === 1 ? 'This happened while you were away:' : `These ${items.length} things happened while you were away:`,
      ],
      items,
      action: { label: 'Open notifications', url: `${origin}/notifications` },
      after: ['You receive these because your email setting is “When I’m away”. Change it on your Profile.'],
      unsubscribe,
    },
    unsubscribeHeaders(unsubscribe),
  );
}

/** What a daily digest says (issue 62's order: what the member watches first, then the rest). */
export interface DigestContent {
  /** Posts the member watches (the post, its category or a tag) with new replies today, and how many. */
  watchedPosts: { id: number; title: string; replies: number }[];
  /** New posts today in categories and tags the member watches. */
  watchedNew: { id: number; title: string; category: string }[];
  /** The day's unread notifications (none about a post they muted). */
  notes: NoteLine[];
  /** The most liked new posts (none they muted). */
  popular: { id: number; title: string; likes: number }[];
}

/** True when a digest would have nothing to say (none is sent). */
export const emptyDigest = (digest: DigestContent): boolean =>
  digest.watchedPosts.length + digest.watchedNew.length + digest.notes.length + digest.popular.length === 0;

/** Daily digest: what the member watches (posts with new replies, new posts in watched categories and tags), the day's notifications, the most liked new posts. */
export function dailyDigest(name: string, origin: string, digest: DigestContent, unsubscribe: string): MailContent {
  const notes = noteItems(origin, digest.notes);
  const postUrl = (id: number) => `${origin}/posts/${id}`;
  const sections = [
    {
      heading: 'Posts you watch',
      items: digest.watchedPosts.map((post) => ({ text: newReplies(post.replies, post.title), url: postUrl(post.id) })),
    },
    {
      heading: 'New in categories and tags you watch',
      items: digest.watchedNew.map((post) => ({ text: post.title, detail: post.category, url: postUrl(post.id) })),
    },
    { heading: 'Notifications', items: notes },
    {
      heading: 'Most liked new posts',
      items: digest.popular.map((post) => ({
        text: post.title,
        detail: `${post.likes} ${post.likes === 1 ? 'like' : 'likes'}`,
        url: postUrl(post.id),
      })),
    },
  ];
  const watched = digest.watchedPosts.length + digest.watchedNew.length;
  return compose(
    `Your ${PRODUCT} daily digest`,
    hello(name),
    {
      paragraphs: [
        watched
          ? 'What happened today in what you watch, then the rest of your day.'
          : notes.length
            ? `${notes.length} ${notes.length === 1 ? 'notification' : 'notifications'} today, and the most liked new posts.`
            : 'The most liked new posts of the day.',
      ],
      sections,
      action: { label: 'Open the forum', url: `${origin}/forum` },
      after: ['You receive this because your email setting is “Daily digest”. Change it on your Profile.'],
      unsubscribe,
    },
    unsubscribeHeaders(unsubscribe),
  );
}

/** A conversation with messages the member has not read, as "When I'm away" lists it (never the messages' text). */
export interface UnreadConversation {
  id: string;
  subject: string;
  count: number;
  senders: string[];
}

/** "When I'm away" for messages (issue 61): which conversations have new messages, and from whom; their text stays on the forum. */
export function awayMessages(name: string, origin: string, conversations: UnreadConversation[], unsubscribe: string): MailContent {
  const total = conversations.reduce((sum, one) => sum + one.count, 0);
  const words = (count: number) => `${count} new ${count === 1 ? 'message' : 'messages'}`;
  return compose(
    `${words(total)} on ${PRODUCT}`,
    hello(name),
    {
      paragraphs: ['While you were away, members wrote to you:'],
      items: conversations.map((one) => ({
        text: one.subject,
        detail: `${words(one.count)} from ${one.senders.join(', ')}`,
        url: `${origin}/messages/${one.id}`,
      })),
      action: { label: 'Open messages', url: `${origin}/messages` },
      after: ['You receive these because your email setting is “When I’m away”. Change it on your Profile.'],
      unsubscribe,
    },
    unsubscribeHeaders(unsubscribe),
  );
}
