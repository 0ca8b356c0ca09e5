import { highlightParts, type ParsedQuery } from '../shared/search-language';

/** Text with the search's matched words in <mark> (plain text without a query). */
export function Highlight({ text, query }: { text: string; query: ParsedQuery | undefined }) {
  if (!query) return text;
  return highlightParts(text, query).map((part, index) => (part.match ? <mark key={index}>{part.text}</mark> : part.text));
}
