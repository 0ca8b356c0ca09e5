// The in-memory search index: the lower-cased text of every approved post, held newest-last in
// plain arrays. A search scans blocks of BLOCK posts whose texts are joined into one string (by
// U+0001, which a query can never hold) with String#indexOf, and maps each hit back to its post.
// Measured in Node on this machine, 100,000 generated posts (56.5 M characters): 47-65 ms a
// query with one String#includes per post, 21-30 ms with joined blocks. A change rebuilds only
// the blocks from the changed post on, at the next search. It holds approved posts only, because
// only approved posts can be searched. It also holds the text of every visible reply the device
// has (issue 39): a post is found through one of its replies as the server's search finds it.

import { searchableText } from './text';
import { matchesFilters, matchesText, type FilterablePost, type ParsedQuery } from '../../shared/search-language';
import type { CategoryFilter, PostStatus } from '../types';

export interface IndexablePost {
  id: number;
  title: string;
  content: string;
  category: string;
  status: PostStatus;
  /** What the search language's filters read (author:, tag:, is:mine); absent reads as none. */
  author?: string;
  authorEmail?: string;
  tags?: readonly string[];
}

export interface IndexableReply {
  id: string;
  postId: number;
  content: string;
  state: string;
}

/** What a search found: the posts, newest first, and for a post found only through a reply, that reply. */
export interface Found {
  ids: number[];
  replies: Record<number, string>;
}

/** What the filters of one post read (title and content empty: the text lives in the blocks), shared by every post with the same author, category and tags. */
type Facets = FilterablePost;

/** Posts per joined block: a change rebuilds at most the blocks from its post to the end. */
const BLOCK = 2_048;
const JOIN = '\u0001';

/** A run of BLOCK posts' texts as one string, with where each post's text starts in it. */
interface Block {
  joined: string;
  starts: Int32Array;
}

export class SearchIndex {
  private ids: number[] = [];
  private categories: string[] = [];
  private texts: string[] = [];
  /**
   * Each post's facets: one shared object per distinct (author, email, category, tags), so 100,000
   * posts by a few thousand members hold a few thousand of them, not 100,000.
   */
  private facets: Facets[] = [];
  private readonly facetPool = new Map<string, Facets>();
  /** Joined blocks by block number, built at the first search that needs them. */
  private blocks: Block[] = [];
  /** Every reply held (any state), by id: its post. */
  private readonly replyPosts = new Map<string, number>();
  /** The visible replies' ids, posts and lower-cased text, in parallel (in no order), and where each id is. */
  private replyIds: string[] = [];
  private replyPostIds: number[] = [];
  private replyTexts: string[] = [];
  private readonly replyAt = new Map<string, number>();

  get size(): number {
    return this.ids.length;
  }

  /** How many replies (any state) the index knows of. */
  get replyCount(): number {
    return this.replyPosts.size;
  }

  /** The ids of every reply the index knows of. */
  heldReplyIds(): string[] {
    return [...this.replyPosts.keys()];
  }

  /** Adds or replaces one reply (a reply not visible is held without its text). */
  upsertReply(reply: IndexableReply): void {
    this.replyPosts.set(reply.id, reply.postId);
    const at = this.replyAt.get(reply.id);
    if (reply.state !== 'visible') {
      if (at !== undefined) this.dropReplyText(at);
      return;
    }
    const text = reply.content.normalize('NFC').toLowerCase();
    if (at !== undefined) {
      this.replyPostIds[at] = reply.postId;
      this.replyTexts[at] = text;
      return;
    }
    this.replyAt.set(reply.id, this.replyIds.length);
    this.replyIds.push(reply.id);
    this.replyPostIds.push(reply.postId);
    this.replyTexts.push(text);
  }

  /** Forgets one reply (deleted from the device). */
  removeReply(id: string): void {
    this.replyPosts.delete(id);
    const at = this.replyAt.get(id);
    if (at !== undefined) this.dropReplyText(at);
  }

  /** Forgets every reply. */
  clearReplies(): void {
    this.replyPosts.clear();
    this.replyAt.clear();
    this.replyIds = [];
    this.replyPostIds = [];
    this.replyTexts = [];
  }

  private dropReplyText(at: number): void {
    const last = this.replyIds.length - 1;
    this.replyAt.delete(this.replyIds[at]!);
    if (at !== last) {
      this.replyIds[at] = this.replyIds[last]!;
      this.replyPostIds[at] = this.replyPostIds[last]!;
      this.replyTexts[at] = this.replyTexts[last]!;
      this.replyAt.set(this.replyIds[at]!, at);
    }
    this.replyIds.pop();
    this.replyPostIds.pop();
    this.replyTexts.pop();
  }

  /** Replaces the whole index; `posts` may come in any order. */
  load(posts: Iterable<IndexablePost>): void {
    const approved = [...posts].filter((post) => post.status === 'approved').sort((a, b) => a.id - b.id);
    this.ids = approved.map((post) => post.id);
    this.categories = approved.map((post) => post.category);
    this.texts = approved.map(searchableText);
    this.facetPool.clear();
    this.facets = approved.map((post) => this.facetsOf(post));
    this.blocks = [];
  }

  /** Adds, replaces or (when it is not approved) removes one post. */
  upsert(post: IndexablePost): void {
    const at = this.position(post.id);
    const present = this.ids[at] === post.id;
    if (post.status !== 'approved') {
      if (present) this.removeAt(at);
      return;
    }
    this.stale(at);
    if (present) {
      this.categories[at] = post.category;
      this.texts[at] = searchableText(post);
      this.facets[at] = this.facetsOf(post);
    } else {
      this.ids.splice(at, 0, post.id);
      this.categories.splice(at, 0, post.category);
      this.texts.splice(at, 0, searchableText(post));
      this.facets.splice(at, 0, this.facetsOf(post));
    }
  }

  /** Removes one post (deleted, or moved to another id); nothing happens when it is not there. */
  remove(id: number): void {
    const at = this.position(id);
    if (this.ids[at] === id) this.removeAt(at);
  }

  /** Ids of the approved posts matching the (normalized) needle and category, newest first. */
  search(needle: string, category: CategoryFilter = 'All'): number[] {
    return this.scan(needle, category, () => true);
  }

  /**
   * Ids of the approved posts matching a query of the search language (shared/search-language.ts): its
   * free text found by the block scan, then its phrases (matchesText) and filters (matchesFilters;
   * `me` is the signed-in member's email, for is:mine); the category dropdown still combines
   * (exact category). Newest first.
   */
  query(parsed: ParsedQuery, category: CategoryFilter = 'All', me: string | null = null, categoryName?: (id: string) => string): number[] {
    return this.find(parsed, category, me, categoryName).ids;
  }

  /**
   * As query, with the posts found through a visible reply (its text holds the free text and every
   * phrase; the post, approved, passes the filters and the category): listed among the others,
   * newest first, each with the reply that matched when the post's own text did not.
   */
  find(parsed: ParsedQuery, category: CategoryFilter = 'All', me: string | null = null, categoryName?: (id: string) => string): Found {
    const ids = this.postsMatching(parsed, category, me, categoryName);
    const replies: Record<number, string> = {};
    if (!parsed.text && parsed.phrases.length === 0) return { ids, replies };
    const found = new Set(ids);
    const decided = new Map<Facets, boolean>();
    let added = false;
    for (let r = 0; r < this.replyTexts.length; r += 1) {
      const text = this.replyTexts[r]!;
      if (parsed.text && !text.includes(parsed.text)) continue;
      const postId = this.replyPostIds[r]!;
      if (found.has(postId) || !matchesText(text, parsed)) continue;
      const i = this.position(postId);
      if (this.ids[i] !== postId || (category !== 'All' && this.categories[i] !== category)) continue;
      const facets = this.facets[i]!;
      let pass = decided.get(facets);
      if (pass === undefined) {
        pass = parsed.chips.length === 0 || matchesFilters(facets, parsed, me, categoryName);
        decided.set(facets, pass);
      }
      if (!pass) continue;
      found.add(postId);
      replies[postId] = this.replyIds[r]!;
      added = true;
    }
    return { ids: added ? [...found].sort((a, b) => b - a) : ids, replies };
  }

  private postsMatching(parsed: ParsedQuery, category: CategoryFilter, me: string | null, categoryName?: (id: string) => string): number[] {
    if (parsed.chips.length === 0) return this.scan(parsed.text, category, () => true);
    // The filters are decided once per shared facets object (many posts share one), not per post.
    const decided = new Map<Facets, boolean>();
    const passes = (facets: Facets) => {
      let pass = decided.get(facets);
      if (pass === undefined) {
        pass = matchesFilters(facets, parsed, me, categoryName);
        decided.set(facets, pass);
      }
      return pass;
    };
    return this.scan(parsed.text, category, (i) => passes(this.facets[i]!) && matchesText(this.texts[i]!, parsed));
  }

  /** The posts (newest first) whose text holds `needle`, of `category`, that `accept` takes (by position). */
  private scan(needle: string, category: CategoryFilter, accept: (i: number) => boolean): number[] {
    const matches: number[] = [];
    const anyCategory = category === 'All';
    if (!needle) {
      for (let i = this.ids.length - 1; i >= 0; i -= 1) {
        if ((anyCategory || this.categories[i] === category) && accept(i)) matches.push(this.ids[i]!);
      }
      return matches;
    }
    const hits: number[] = [];
    for (let number = Math.ceil(this.ids.length / BLOCK) - 1; number >= 0; number -= 1) {
      const { joined, starts } = this.block(number);
      const first = number * BLOCK;
      // Hits come in text order: walk the posts along with them, one hit per post at most.
      hits.length = 0;
      let post = 0;
      for (let at = joined.indexOf(needle); at !== -1;) {
        while (post + 1 < starts.length && starts[post + 1]! <= at) post += 1;
        hits.push(post);
        if (post + 1 >= starts.length) break;
        at = joined.indexOf(needle, starts[post + 1]);
      }
      for (let h = hits.length - 1; h >= 0; h -= 1) {
        const i = first + hits[h]!;
        if ((anyCategory || this.categories[i] === category) && accept(i)) matches.push(this.ids[i]!);
      }
    }
    return matches;
  }

  /** Block `number`, joined now if a change (or the load) left it unbuilt. */
  private block(number: number): Block {
    const built = this.blocks[number];
    if (built) return built;
    const texts = this.texts.slice(number * BLOCK, (number + 1) * BLOCK);
    const starts = new Int32Array(texts.length);
    let offset = 0;
    texts.forEach((text, i) => {
      starts[i] = offset;
      offset += text.length + JOIN.length;
    });
    const joined = texts.join(JOIN);
    // Each post's text becomes a slice of the joined string, so the index holds its text once.
    texts.forEach((text, i) => {
      this.texts[number * BLOCK + i] = joined.slice(starts[i], starts[i]! + text.length);
    });
    const block = { joined, starts };
    this.blocks[number] = block;
    return block;
  }

  /** Forgets the blocks from the one holding position `at` on (their posts changed or moved). */
  private stale(at: number): void {
    this.blocks.length = Math.min(this.blocks.length, Math.floor(at / BLOCK));
  }

  private removeAt(at: number): void {
    this.stale(at);
    this.ids.splice(at, 1);
    this.categories.splice(at, 1);
    this.texts.splice(at, 1);
    this.facets.splice(at, 1);
  }

  /** The shared facets of a post (a new entry for a combination not seen yet). */
  private facetsOf(post: IndexablePost): Facets {
    const tags = post.tags ?? [];
    const key = [post.author ?? '', post.authorEmail ?? '', post.category, ...tags].join('\u0000');
    let facets = this.facetPool.get(key);
    if (!facets) {
      facets = {
        title: '',
        content: '',
        author: post.author ?? '',
        authorEmail: post.authorEmail ?? '',
        category: post.category,
        tags: [...tags],
      };
      this.facetPool.set(key, facets);
    }
    return facets;
  }

  /** The index where `id` is or would be inserted (binary search on the sorted ids). */
  private position(id: number): number {
    let low = 0;
    let high = this.ids.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.ids[middle]! < id) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}
