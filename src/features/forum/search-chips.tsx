import { IconX } from '@tabler/icons-react';
import type { QueryChip } from '../../shared/search-language';

/** The query's filters as chips under the search box; each one's button removes it from the query. */
export function SearchChips({ chips, onRemove }: { chips: readonly QueryChip[]; onRemove: (chip: QueryChip) => void }) {
  if (!chips.length) return null;
  return (
    <ul className="list-unstyled d-flex flex-wrap gap-2 mb-0 mt-2 app-chips" aria-label="Search filters">
      {chips.map((chip, index) => (
        <li key={`${index}-${chip.raw}`}>
          <button
            type="button"
            className="btn btn-sm btn-outline-primary rounded-pill app-chip"
            aria-label={`Remove ${chip.label}`}
            onClick={() => onRemove(chip)}
          >
            <span>{chip.label}</span>
            <IconX aria-hidden="true" size={14} />
          </button>
        </li>
      ))}
    </ul>
  );
}
