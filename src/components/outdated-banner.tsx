import { reloadApp } from './reload';
/** Shown when a newer version upgraded the database from another tab: this tab must reload. */
export function OutdatedBanner() {
  return (
    <div className="alert alert-warning app-banner mb-0 rounded-0" role="alert">
      <div className="container d-flex flex-wrap align-items-center gap-3">
        <span className="me-auto">
          <strong>Insight Exchange was updated in another tab.</strong> Reload to keep working; nothing you saved is lost.
        </span>
        <button type="button" className="btn btn-sm btn-dark" onClick={() => void reloadApp()}>
          Reload
        </button>
      </div>
    </div>
  );
}
