// Messages between the page and the search worker.
import type { CategoryFilter } from '../types';

export type SearchRequest =
  | { type: 'warm' }
  | { type: 'bye' }
  /** Posts changed: read what changed since the last read. */
  | { type: 'refresh' }
  /** `query` is the search language (shared/search-language.ts); `me` the signed-in member's email (is:mine). */
  | { type: 'search'; id: number; query: string; category: CategoryFilter; me?: string | null };

export type SearchResponse =
  /** `replies`: for a post found only through one of its replies, that reply's id. */
  | { type: 'result'; id: number; ids: number[]; replies?: Record<number, string> }
  | { type: 'failed'; id: number; message: string }
  | { type: 'changed' };
