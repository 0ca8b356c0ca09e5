import { useEffect, useState } from 'react';
import { IconAlertCircle, IconCircleCheck, IconInfoCircle } from '@tabler/icons-react';
import type { ToastMessage } from './toast-context';

const icons = { success: IconCircleCheck, error: IconAlertCircle, info: IconInfoCircle } as const;

interface ToastViewProps {
  toast: ToastMessage;
  duration: number;
  onDismiss: () => void;
}

/**
 * One toast, shown inside the provider's live region (status, or alert for errors, which also get
 * the destructive style). It leaves after `duration` ms; pointing at it or focusing it holds it.
 */
export function ToastView({ toast, duration, onDismiss }: ToastViewProps) {
  const [held, setHeld] = useState(false);
  useEffect(() => {
    if (held) return undefined;
    const timer = setTimeout(onDismiss, duration);
    return () => clearTimeout(timer);
  }, [held, duration, onDismiss]);

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
          onClick={onDismiss}
        />
      </div>
      {toast.description && <div className="toast-body">{toast.description}</div>}
    </div>
  );
}
