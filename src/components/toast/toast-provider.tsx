import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { ToastContext, WithdrawToastContext, type ShowOptions, type ToastMessage } from './toast-context';
import { ToastView } from './toast-view';

/** How long a toast stays (product.md §6). */
export const TOAST_DURATION_MS = 5_000;

interface ShownToast extends ToastMessage {
  id: number;
}

/** Where a pointer last went down (the control just pressed, when focus does not say). */
let lastPointerY: number | null = null;
if (typeof window !== 'undefined') {
  window.addEventListener(
    'pointerdown',
    (event) => {
      // A press on the toast itself says nothing about where the work is (and must not move it).
      if (!(event.target instanceof Element && event.target.closest('.app-toasts'))) lastPointerY = event.clientY;
    },
    { capture: true, passive: true },
  );
}

/**
 * Whether a toast shows at the top (below the header) rather than the bottom: at the top when what
 * the person works on (the focused control's row or form, else where they last pressed) is in the
 * lower half of the screen, so the toast never covers the next thing they are about to press
 * (issue 40: after Reject, the next post's buttons; after Flag on a phone, the reply's row). Asked
 * again whenever the focus moves while a toast shows (a review moves it to the next post).
 */
function placeAtTop(): boolean {
  const focused = document.activeElement;
  let y = lastPointerY;
  if (focused instanceof HTMLElement && focused !== document.body && !focused.closest('.app-toasts')) {
    const area = focused.closest('.card-footer, form, li') ?? focused;
    const rect = (area.getBoundingClientRect().height < window.innerHeight / 2 ? area : focused).getBoundingClientRect();
    if (rect.height > 0) y = rect.top + rect.height / 2;
  }
  return y !== null && y > window.innerHeight / 2;
}

/** The state once the current toast has left: the waiting one shows, or none. */
const afterCurrent = (previous: ToastState): ToastState =>
  previous.next
    ? { current: { ...previous.next, id: previous.count + 1 }, top: placeAtTop(), next: null, count: previous.count + 1 }
    : { ...previous, current: null };

interface ToastState {
  current: ShownToast | null;
  /** Whether the current toast shows at the top (placeAtTop). */
  top: boolean;
  /** One piece of unasked-for news waiting for the current toast to leave. */
  next: ToastMessage | null;
  count: number;
}

/** Holds the single visible toast: a new one replaces the old (product.md §4). */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<ToastState>({ current: null, top: false, next: null, count: 0 });
  const show = useCallback((message: ToastMessage, options?: ShowOptions) => {
    setState((previous) => {
      if (options?.whenIdle && previous.current) return { ...previous, next: message };
      return { current: { ...message, id: previous.count + 1 }, top: placeAtTop(), next: previous.next, count: previous.count + 1 };
    });
  }, []);
  // Names the toast it dismisses: a toast's timer or button can act after a newer toast replaced it
  // but before that one is on screen (its timer is cleared only then), and must not take the newer away.
  const dismiss = useCallback((id: number) => {
    setState((previous) => (previous.current?.id === id ? afterCurrent(previous) : previous));
  }, []);
  const withdraw = useCallback((from: string) => {
    setState((previous) => (previous.current?.from === from ? afterCurrent(previous) : previous));
  }, []);
  const toast = state.current;
  const shownId = toast?.id;
  useEffect(() => {
    if (shownId === undefined) return undefined;
    let frame = 0;
    const place = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        // Never while the toast itself has the focus: pressing its Undo must not move it between the
        // press and the release (the click would then land elsewhere, and Undo do nothing).
        if (document.activeElement?.closest('.app-toasts')) return;
        const top = placeAtTop();
        setState((previous) => (previous.top === top ? previous : { ...previous, top }));
      });
    };
    // Once painted (what was pressed may have gone, the focus moved on), then at every move.
    place();
    document.addEventListener('focusin', place);
    return () => {
      cancelAnimationFrame(frame);
      document.removeEventListener('focusin', place);
    };
  }, [shownId]);
  const view = toast && <ToastView key={toast.id} id={toast.id} toast={toast} duration={TOAST_DURATION_MS} onDismiss={dismiss} />;
  const isError = toast?.variant === 'error';
  // Two live regions that are always in the page, so screen readers announce what appears in
  // them: polite for success and information, assertive for errors.
  return (
    <ToastContext.Provider value={show}>
      <WithdrawToastContext.Provider value={withdraw}>{children}</WithdrawToastContext.Provider>
      <div className={`app-toasts p-3${toast && state.top ? ' is-top' : ''}`}>
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
