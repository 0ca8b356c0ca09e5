// Keeps a SearchIndex equal to the approved posts in IndexedDB: a read of every approved post at
// start, then, each time the page says posts changed (`refresh`), the posts removed since (their
// numbered list) and everything whose change number is above the last one seen (new posts,
// approvals, rejections, edits, imports), and the same for replies (their own change numbers, and a
// count that tells when some were deleted). Reads go through a PostSource (plain IndexedDB), so
// neither the worker nor this file needs Dexie.

import type { PostSource } from './idb-source';
import { SearchIndex, type Found } from './search-index';
import { parseQuery } from '../../shared/search-language';
import type { CategoryFilter } from '../types';

const LOAD_CHUNK = 5_000;

export class SearchEngine {
  private readonly index = new SearchIndex();
  private lastRev = 0;
  private lastRemoval = 0;
  private lastReplyRev = 0;
  private loading: Promise<void> | undefined;
  private loaded = false;
  private refreshing: Promise<void> | undefined;
  private again = false;
  private verify = false;

  constructor(
    private readonly source: PostSource,
    private readonly onChange: () => void = () => undefined,
  ) {}

  /**
   * Loads the index once (later calls wait for the same load), then catches up with what was
   * written meanwhile. A failed load is forgotten, so the next search tries again.
   */
  start(): Promise<void> {
    this.loading ??= this.load()
      .then(() => {
        this.loaded = true;
        return this.refresh();
      })
      .catch((error: unknown) => {
        this.loading = undefined;
        throw error;
      });
    return this.loading;
  }

  /**
   * Ids of approved posts matching the query (the search language of shared/search-language.ts: free text,
   * phrases, filters; `me` for is:mine) and category, newest first.
   */
  async search(query: string, category: CategoryFilter, me: string | null = null): Promise<number[]> {
    return (await this.find(query, category, me)).ids;
  }

  /** As search, with the reply each post found only through a reply was found by. */
  async find(query: string, category: CategoryFilter, me: string | null = null): Promise<Found> {
    await this.start();
    const parsed = parseQuery(query);
    // Read at a search that names a category (a few rows): an admin's rename is found at once.
    const names = parsed.categories.length > 0 ? await this.source.categoryNames?.().catch(() => undefined) : undefined;
    return this.index.find(parsed, category, me, (id) => names?.get(id) ?? id);
  }

  /**
   * A page connected to a worker that outlived the pages before it (search/client.ts): nobody told it
   * of what was written meanwhile. Reads what changed, then, when the approved posts stored are not as
   * many as those held (a row written without a change number, as a raw write of a test) or the list of
   * removals is numbered lower (a database made anew), reads every post again.
   */
  catchUp(): Promise<void> {
    if (!this.loaded) return Promise.resolve();
    this.verify = true;
    return this.refresh();
  }

  /** Reads what changed since the last read (calls during a read are folded into one more read). */
  refresh(): Promise<void> {
    if (!this.loaded) return Promise.resolve();
    if (this.refreshing) {
      this.again = true;
      return this.refreshing;
    }
    this.refreshing = (async () => {
      try {
        do {
          this.again = false;
          // Removals first: a post put back since (Undo) has a new change number, read next.
          const removed = await this.dropRemoved();
          // A change number is the highest stored plus one (storage/revisions.ts): with the newest post
          // removed, the next write takes its number again, and a database made anew starts over.
          this.lastRev = Math.min(this.lastRev, await this.source.lastRev());
          const rows = await this.source.changedSince(this.lastRev);
          for (const row of rows) {
            this.index.upsert(row);
            if ((row.rev ?? 0) > this.lastRev) this.lastRev = row.rev ?? 0;
          }
          const replies = await this.refreshReplies();
          if (this.verify) {
            this.verify = false;
            // load() tells onChange itself.
            if (await this.differs()) await this.load();
          }
          if (removed || rows.length > 0 || replies) this.onChange();
        } while (this.again);
      } catch {
        // The database went away (closed, upgraded): the next search loads afresh.
        this.loaded = false;
        this.loading = undefined;
      } finally {
        this.refreshing = undefined;
      }
    })();
    return this.refreshing;
  }

  get size(): number {
    return this.index.size;
  }

  /** Stops following changes; a later start() loads afresh. */
  stop(): void {
    this.source.close();
    this.loading = undefined;
  }

  /**
   * Reads the replies written since the last read, then, when the device holds fewer replies than
   * the index (some were deleted: a spammer's, a refused one's), drops those no longer there.
   * Returns true when the index changed.
   */
  private async refreshReplies(): Promise<boolean> {
    const replies = this.source.replies;
    if (!replies) return false;
    const rows = await replies.changedSince(this.lastReplyRev);
    for (const row of rows) {
      this.index.upsertReply(row);
      if ((row.rev ?? 0) > this.lastReplyRev) this.lastReplyRev = row.rev ?? 0;
    }
    const count = await replies.count();
    if (count === this.index.replyCount) return rows.length > 0;
    const present = new Set(await replies.ids());
    for (const id of this.index.heldReplyIds()) if (!present.has(id)) this.index.removeReply(id);
    // More here than read (a number given again after the clock went back): read them all again.
    if (present.size > this.index.replyCount) await this.loadReplies();
    return true;
  }

  /** Reads every reply (in short reads, as the posts), their change numbers first. */
  private async loadReplies(): Promise<void> {
    const replies = this.source.replies;
    this.index.clearReplies();
    if (!replies) return;
    this.lastReplyRev = await replies.lastRev();
    let after: string | undefined;
    for (;;) {
      const chunk = await replies.after(after, LOAD_CHUNK);
      for (const reply of chunk) this.index.upsertReply(reply);
      if (chunk.length < LOAD_CHUNK) break;
      after = chunk[chunk.length - 1]!.id;
    }
  }

  /** Drops the posts removed since the last read; returns true when the index changed. */
  private async dropRemoved(): Promise<boolean> {
    const list = await this.source.removals?.();
    if (!list || list.last <= this.lastRemoval) return false;
    const first = list.last - list.ids.length + 1;
    if (first > this.lastRemoval + 1) {
      // More were removed than the list keeps: read every approved post again.
      await this.load();
      return true;
    }
    for (const id of list.ids.slice(this.lastRemoval + 1 - first)) this.index.remove(id);
    this.lastRemoval = list.last;
    return true;
  }

  /** Whether the approved posts stored cannot be those held (catchUp). */
  private async differs(): Promise<boolean> {
    const [stored, removals] = await Promise.all([this.source.approvedCount?.(), this.source.removals?.()]);
    return (stored !== undefined && stored !== this.index.size) || (removals?.last ?? 0) < this.lastRemoval;
  }

  private async load(): Promise<void> {
    const { source } = this;
    // The change numbers first, then the posts in short reads (a long transaction would make
    // every like wait). A post approved, rejected or removed meanwhile has a higher number, so
    // the refresh after the load brings the index up to date.
    this.lastRemoval = (await source.removals?.())?.last ?? 0;
    this.lastRev = await source.lastRev();
    const rows = [];
    let after: number | undefined;
    for (;;) {
      const chunk = await source.approvedAfter(after, LOAD_CHUNK);
      rows.push(...chunk);
      if (chunk.length < LOAD_CHUNK) break;
      after = chunk[chunk.length - 1]!.id;
    }
    this.index.load(rows);
    await this.loadReplies();
    this.onChange();
  }
}
