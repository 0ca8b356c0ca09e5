// @vitest-environment happy-dom
// No raw errors (issue 59, item 2): a failure that no rule names reaches a person as the
// vocabulary's plain sentence, in a toast and in an error boundary; its JavaScript message goes to
// the console only.
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ErrorBoundary } from '../../../src/components/error-boundary';
import { errorToast } from '../../../src/components/toast/error-toast';
import { DataError } from '../../../src/db/storage/errors';
import { ERRORS } from '../../../src/shared/errors';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const RAW = "Cannot read properties of undefined (reading 'id')";

function Broken(): never {
  throw new TypeError(RAW);
}

describe('errors a person reads', () => {
  it('a toast for a fault of this build says the plain sentence, never its JavaScript message', () => {
    const console = vi.spyOn(globalThis.console, 'error').mockImplementation(() => undefined);
    expect(errorToast(new TypeError(RAW))).toEqual({
      title: ERRORS.unexpected.title,
      description: ERRORS.unexpected.message,
      variant: 'error',
    });
    expect(console).toHaveBeenCalled();
    // A typed error keeps its own title and sentence.
    expect(errorToast(new DataError('not_found'))).toMatchObject({ title: 'Post removed', description: ERRORS.not_found.message });
  });

  it('an error boundary shows the plain sentence, not the JavaScript message', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      <ErrorBoundary area="the pending posts">
        <Broken />
      </ErrorBoundary>,
    );
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain("We couldn't show the pending posts");
    expect(alert.textContent).toContain(ERRORS.unexpected.message);
    expect(alert.textContent).not.toContain(RAW);
  });
});
