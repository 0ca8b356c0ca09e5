import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';

/** Shown when a newer version upgraded the database from another tab: this tab must reload. */
export function OutdatedBanner() {
  return (
    <Alert variant="warning" className="app-banner mb-0 rounded-0" role="alert">
      <div className="container d-flex flex-wrap align-items-center gap-3">
        <span className="me-auto">
          <strong>Insight Exchange was updated in another tab.</strong> Reload to keep working; nothing you saved is lost.
        </span>
        <Button size="sm" variant="dark" onClick={() => window.location.reload()}>
          Reload
        </Button>
      </div>
    </Alert>
  );
}
