import { useCallback, useState, type ReactNode } from 'react';
import { ToastContext, type ShowOptions, type ToastMessage } from './toast-context';
import { ToastView } from './toast-view';

/** How long a toast stays (product.md §6). */
export const TOAST_DURATION_MS = 5_000;

interface ShownToast extends ToastMessage {
  id: number;
}

interface ToastState {
  current: ShownToast | null;
  /** One piece of unasked-for news waiting for the current toast to leave. */
  next: ToastMessage | null;
  count: number;
}

/** Holds the single visible toast: a new one replaces the old (product.md §4). */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<ToastState>({ current: null, next: null, count: 0 });
  const show = useCallback((message: ToastMessage, options?: ShowOptions) => {
    setState((previous) => {
      if (options?.whenIdle && previous.current) return { ...previous, next: message };
      return { current: { ...message, id: previous.count + 1 }, next: previous.next, count: previous.count + 1 };
    });
  }, []);
  const dismiss = useCallback(() => {
    setState((previous) =>
      previous.next
        ? { current: { ...previous.next, id: previous.count + 1 }, next: null, count: previous.count + 1 }
        : { ...previous, current: null },
    );
  }, []);
  const toast = state.current;
  const view = toast && <ToastView key={toast.id} toast={toast} duration={TOAST_DURATION_MS} onDismiss={dismiss} />;
  const isError = toast?.variant === 'error';
  // Two live regions that are always in the page, so screen readers announce what appears in
  // them: polite for success and information, assertive for errors.
  return (
    <ToastContext.Provider value={show}>
      {children}
      <div className="app-toasts p-3">
        <div role="status" aria-live="polite" aria-atomic="true">
          {!isError && view}
        </div>
        <div role="alert" aria-live="assertive" aria-atomic="true">
          {isError && view}
        </div>
      </div>
    </ToastContext.Provider>
  );
}
