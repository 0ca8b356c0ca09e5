import { useId } from 'react';
import Dropdown from 'react-bootstrap/Dropdown';
import { IconBell, IconBellOff, IconBellRinging } from '@tabler/icons-react';
import { useToast } from '../toast/toast-context';
import './follow-menu.scss';
import { errorToast } from '../toast/error-toast';
import { setFollowLevel } from '../../db/follows/follows';
import { useFollowLevel, useLevelOf } from '../../hooks/use-follows';
import {
  FOLLOW_LEVELS,
  FOLLOW_LEVEL_HINTS,
  FOLLOW_LEVEL_NAMES,
  inheritedLevel,
  type FollowKind,
  type FollowLevel,
} from '../../shared/follows';

const LEVEL_ICONS: Record<FollowLevel, typeof IconBell> = { watching: IconBellRinging, normal: IconBell, muted: IconBellOff };

/**
 * The "Follow" menu of a post or a category: Watching, Normal or Muted, each with what it does (a
 * menu of radio items, the current one checked). The button's accessible description is the current level. A choice is an operation, so it works offline.
 * A post (`of`: its category and tags) without a level of its own shows the one it takes from them
 * ("Watching, from its category"); choosing another sets the post's own, which wins.
 */
export function FollowMenu({
  kind,
  target,
  of,
  align = 'end',
}: {
  kind: FollowKind;
  target: string;
  of?: { category: string; tags?: readonly string[] };
  align?: 'start' | 'end';
}) {
  const own = useFollowLevel(kind, target);
  const levelOf = useLevelOf();
  const inherited = own === undefined && of ? inheritedLevel(of, levelOf) : undefined;
  const level = own ?? inherited?.level ?? 'normal';
  const showToast = useToast();
  const levelId = useId();
  const Icon = LEVEL_ICONS[level];

  const choose = (chosen: FollowLevel) => {
    // Taken from its category or tags, the same level chosen becomes the post's own (it stays if they change).
    if (chosen !== level || inherited) setFollowLevel(kind, target, chosen).catch((error: unknown) => showToast(errorToast(error)));
  };

  return (
    <Dropdown align={align} className="app-follow-menu">
      <Dropdown.Toggle
        variant="outline-secondary"
        size="sm"
        className="d-inline-flex align-items-center gap-1"
        aria-describedby={levelId}
        aria-haspopup="menu"
        data-level={level}
      >
        <Icon aria-hidden="true" size={16} />
        Follow
        {/* The level shows on the button too (a trial: Watching looked like Follow); its name stays
            "Follow", the level its description. */}
        {level !== 'normal' && (
          <span aria-hidden="true" className="app-follow-level">
            · {FOLLOW_LEVEL_NAMES[level]}
          </span>
        )}
      </Dropdown.Toggle>
      <span id={levelId} className="visually-hidden">
        {FOLLOW_LEVEL_NAMES[level]}
        {inherited && `, from its ${inherited.from === 'category' ? 'category' : 'tags'}`}
      </span>
      <Dropdown.Menu role="menu" aria-label="Follow">
        {FOLLOW_LEVELS.map((option) => (
          <Dropdown.Item
            key={option}
            as="button"
            type="button"
            role="menuitemradio"
            // The current one is checked (aria-checked), not `active`: react-bootstrap would add
            // aria-selected, which a radio menu item may not carry.
            className={option === level ? 'active' : undefined}
            aria-checked={option === level}
            onClick={() => choose(option)}
          >
            <span className="d-block fw-semibold">{FOLLOW_LEVEL_NAMES[option]}</span>
            <small className="d-block text-wrap app-follow-hint">{FOLLOW_LEVEL_HINTS[option]}</small>
          </Dropdown.Item>
        ))}
      </Dropdown.Menu>
    </Dropdown>
  );
}
