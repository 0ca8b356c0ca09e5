// The one toast channel of the app: one toast at a time, a new one replaces the old (product.md §4).
import { createContext, useContext } from 'react';

export type ToastVariant = 'success' | 'error' | 'info';

export interface ToastMessage {
  title: string;
  description?: string;
  variant?: ToastVariant;
}

export interface ShowOptions {
  /** Wait for the toast on screen to leave instead of replacing it (for news nobody asked for). */
  whenIdle?: boolean;
}

export type ShowToast = (toast: ToastMessage, options?: ShowOptions) => void;

export const ToastContext = createContext<ShowToast>(() => undefined);

/** Returns the function that shows a toast. */
export function useToast(): ShowToast {
  return useContext(ToastContext);
}
