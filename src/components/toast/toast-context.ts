// The one toast channel of the app: one toast at a time, a new one replaces the old (product.md §4).
import { createContext, useContext } from 'react';

export type ToastVariant = 'success' | 'error' | 'info';

/** A button in a toast (e.g. Undo); pressing it runs `onClick` and dismisses the toast. */
export interface ToastAction {
  label: string;
  onClick: () => void;
}

export interface ToastMessage {
  title: string;
  description?: string;
  variant?: ToastVariant;
  action?: ToastAction;
  /**
   * When it leaves (ms since the epoch), held or not: an action that stops working then (Undo)
   * must not be offered after it. Without it, the toast stays the usual duration, longer while held.
   */
  until?: number;
  /**
   * Who showed it (a form, by a name of its own): that one may take it back (useWithdrawToast) once
   * it no longer holds, as a form's error does when the next try gives another answer.
   */
  from?: string;
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

/** Takes the toast on screen away if `from` showed it (ToastMessage.from); else does nothing. */
export type WithdrawToast = (from: string) => void;

export const WithdrawToastContext = createContext<WithdrawToast>(() => undefined);

/** Returns the function that takes back a toast its caller showed. */
export function useWithdrawToast(): WithdrawToast {
  return useContext(WithdrawToastContext);
}
