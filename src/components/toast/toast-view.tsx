import { useEffect, useState } from 'react';
import { IconAlertCircle, IconCircleCheck, IconInfoCircle } from '@tabler/icons-react';
import type { ToastMessage } from './toast-context';

const icons = { success: IconCircleCheck, error: IconAlertCircle, info: IconInfoCircle } as const;

interface ToastViewProps {
  /** Which toast this is: what `onDismiss` is told, so that it dismisses this one only. */
  id: number;
  toast: ToastMessage;
  duration: number;
  onDismiss: (id: number) => void;
}

/**
 * One toast, shown inside the provider's live region (status, or alert for errors, which also get
 * the destructive style). It leaves after `duration` ms; pointing at it or focusing it holds it,
 * unless it has a deadline (`until`), which nothing extends.
 */
export function ToastView({ id, toast, duration, onDismiss }: ToastViewProps) {
  const [held, setHeld] = useState(false);
  const { until } = toast;
  useEffect(() => {
    const leave = () => onDismiss(id);
    if (until !== undefined) {
      const timer = setTimeout(leave, Math.max(0, until - Date.now()));
      return () => clearTimeout(timer);
    }
    if (held) return undefined;
    const timer = setTimeout(leave, duration);
    return () => clearTimeout(timer);
  }, [held, duration, onDismiss, id, until]);
  const { action } = toast;

  const variant = toast.variant ?? 'success';
  const isError = variant === 'error';
  const Icon = icons[variant];
  return (
    <div
      className={`toast show app-toast app-toast-${variant}${isError ? ' text-bg-danger' : ''}`}
      onPointerEnter={() => setHeld(true)}
      onPointerLeave={() => setHeld(false)}
      onFocus={() => setHeld(true)}
      onBlur={() => setHeld(false)}
    >
      <div className="toast-header">
        <Icon aria-hidden="true" size={18} className="me-2 flex-shrink-0 app-toast-icon" />
        <strong className="me-auto">{toast.title}</strong>
        <button
          type="button"
          className={`btn-close${isError ? ' btn-close-white' : ''}`}
          aria-label="Dismiss notification"
          onClick={() => onDismiss(id)}
        />
      </div>
      {(toast.description || action) && (
        <div className="toast-body app-toast-body">
          {toast.description && <span>{toast.description}</span>}
          {action && (
            <button
              type="button"
              className={`btn btn-sm app-toast-action ${isError ? 'btn-light' : 'btn-outline-primary'}`}
              onClick={() => {
                onDismiss(id);
                action.onClick();
              }}
            >
              {action.label}
            </button>
          )}
        </div>
      )}
    </div>
  );
}
