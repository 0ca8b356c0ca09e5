import { Markdown } from '../../components/markdown/markdown';
import { DISPLAY_CHARS, clip, formatFullDate } from '../../lib/format';
import { LIMITS, type PostVersion } from '../../shared/post-rules';
import { useCategoryNameOf } from '../../hooks/use-categories';

/** Admins only: the post as it was before its author's last edit, folded away until asked for. */
export function PreviousVersion({ version }: { version: PostVersion }) {
  const categoryName = useCategoryNameOf();
  return (
    <details className="app-previous-version">
      <summary>Previous version</summary>
      <div className="app-previous-version-body">
        <p className="small text-body-secondary mb-2">
          {version.editedAt === null ? 'As first approved' : `As edited ${formatFullDate(version.editedAt)}`} ·{' '}
          {clip(categoryName(version.category), DISPLAY_CHARS.category)}
        </p>
        <p className="fw-bold mb-2">{clip(version.title, DISPLAY_CHARS.title)}</p>
        <Markdown source={clip(version.content, LIMITS.content)} />
      </div>
    </details>
  );
}
