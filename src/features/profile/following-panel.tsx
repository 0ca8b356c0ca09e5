import { useId } from 'react';
import { IconBell } from '@tabler/icons-react';
import { Panel } from '../../components/panel';
import { useToast } from '../../components/toast/toast-context';
import { errorToast } from '../../components/toast/error-toast';
import { useCategories } from '../../hooks/use-categories';
import { setAutoWatchPreference, setFollowLevel } from '../../db/follows/follows';
import { useAutoWatch, useTopicFollows } from '../../hooks/use-follows';
import { DISPLAY_CHARS, clip } from '../../lib/format';
import { FOLLOW_LEVELS, FOLLOW_LEVEL_NAMES, type FollowKind, type FollowLevel } from '../../shared/follows';

/** One category or tag with its level, changeable in place. */
function LevelRow({ kind, target, label, level }: { kind: FollowKind; target: string; label: string; level: FollowLevel }) {
  const id = useId();
  const showToast = useToast();
  return (
    <li className="d-flex align-items-center justify-content-between gap-2">
      <label htmlFor={id} className="text-truncate">
        {label}
      </label>
      <select
        id={id}
        className="form-select form-select-sm w-auto"
        value={level}
        onChange={(event) =>
          setFollowLevel(kind, target, event.target.value as FollowLevel).catch((error: unknown) => showToast(errorToast(error)))
        }
      >
        {FOLLOW_LEVELS.map((option) => (
          <option key={option} value={option}>
            {FOLLOW_LEVEL_NAMES[option]}
          </option>
        ))}
      </select>
    </li>
  );
}

/**
 * Profile's "Following": every category this member may see and every tag they set a level on, each
 * with its level (changeable here); and "Watch what I write" (writing a post or a reply watches it).
 */
export function FollowingPanel() {
  const id = useId();
  const showToast = useToast();
  const categories = useCategories();
  const follows = useTopicFollows();
  const autoWatch = useAutoWatch();
  const levels = new Map(follows.map((follow) => [`${follow.kind}:${follow.target}`, follow.level]));
  const tags = follows.filter((follow) => follow.kind === 'tag');
  return (
    <Panel id={`${id}-title`} icon={<IconBell aria-hidden="true" size={20} />} title="Following" className="app-panel">
      <div className="form-check form-switch mb-3">
        <input
          id={`${id}-auto`}
          className="form-check-input"
          type="checkbox"
          role="switch"
          checked={autoWatch}
          onChange={(event) => setAutoWatchPreference(event.target.checked).catch((error: unknown) => showToast(errorToast(error)))}
        />
        <label className="form-check-label" htmlFor={`${id}-auto`}>
          Watch what I write
        </label>
      </div>
      <h3 className="fs-6 fw-semibold">Categories</h3>
      <ul className="list-unstyled d-grid gap-2 mb-3" aria-label="Categories">
        {categories.map((category) => (
          <LevelRow
            key={category.id}
            kind="category"
            target={category.id}
            label={category.name}
            level={levels.get(`category:${category.id}`) ?? 'normal'}
          />
        ))}
      </ul>
      <h3 className="fs-6 fw-semibold">Tags</h3>
      {tags.length === 0 ? (
        <p className="small text-body-secondary mb-0">No tags followed yet. Search a tag in the forum to watch or mute it.</p>
      ) : (
        <ul className="list-unstyled d-grid gap-2 mb-0" aria-label="Tags">
          {tags.map((tag) => (
            <LevelRow key={tag.target} kind="tag" target={tag.target} label={`#${clip(tag.target, DISPLAY_CHARS.tag)}`} level={tag.level} />
          ))}
        </ul>
      )}
    </Panel>
  );
}
