import { useId } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { IconPalette } from '@tabler/icons-react';
import { useToast } from '../../components/toast/toast-context';
import { errorToast } from '../../components/toast/error-toast';
import { readTheme, setTheme } from '../../db/preferences/preferences';
import { THEME_LABELS, THEMES, type Theme } from '../../shared/theme';

/**
 * Profile's "Theme": System, Light or Dark as a segmented button group (radios). The choice is
 * stored for the member and follows them to their other devices; the page follows it at once.
 */
export function ThemeControl({ email }: { email: string }) {
  const id = useId();
  const showToast = useToast();
  const theme = useLiveQuery(() => readTheme(email), [email]);
  const choose = (next: Theme) => {
    setTheme(email, next).catch((error: unknown) => showToast(errorToast(error)));
  };
  return (
    <section className="card app-panel" aria-labelledby={`${id}-title`}>
      <div className="card-body">
        <h2 id={`${id}-title`} className="app-sidebar-title">
          <IconPalette aria-hidden="true" size={20} /> Appearance
        </h2>
        <fieldset className="app-theme-control">
          <legend className="form-label fs-6">Theme</legend>
          <div className="app-segmented">
            {THEMES.map((value) => (
              <span key={value}>
                <input
                  type="radio"
                  className="btn-check"
                  id={`${id}-${value}`}
                  name={`${id}-theme`}
                  value={value}
                  checked={theme === value}
                  disabled={theme === undefined}
                  onChange={() => choose(value)}
                />
                <label className="btn btn-outline-primary" htmlFor={`${id}-${value}`}>
                  {THEME_LABELS[value]}
                </label>
              </span>
            ))}
          </div>
          <p className="small text-body-secondary mt-2 mb-0">System follows this device&apos;s light or dark setting.</p>
        </fieldset>
      </div>
    </section>
  );
}
