import { Component, type ErrorInfo, type ReactNode } from 'react';
import { CrashScreen } from './crash-screen';
import { ERRORS } from '../shared/errors';

interface Props {
  children: ReactNode;
  /** Where the failure happened, in words ("the post list"). */
  area?: string;
  /** Full-page fallback for the root boundary; a compact alert otherwise. */
  fullPage?: boolean;
  /** When it changes (the route's path), a failure shown is cleared and the children try again. */
  resetKey?: unknown;
}

interface State {
  error: Error | null;
}

/** Catches a render failure so one broken part never blanks the whole page. */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('Render failure', error, info.componentStack);
  }

  override componentDidUpdate(previous: Props): void {
    if (this.state.error && previous.resetKey !== this.props.resetKey) this.setState({ error: null });
  }

  private readonly retry = () => this.setState({ error: null });

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    const where = this.props.area ?? 'this part of the page';
    if (this.props.fullPage) {
      return <CrashScreen />;
    }
    return (
      <div className="alert alert-danger" role="alert">
        <h2 className="alert-heading h6">We couldn&apos;t show {where}</h2>
        <p className="mb-2 small">{ERRORS.unexpected.message}</p>
        <button type="button" className="btn btn-sm btn-outline-danger" onClick={this.retry}>
          Try again
        </button>
      </div>
    );
  }
}
