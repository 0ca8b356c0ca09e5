// The auth context of product.md §4: the user, login, signup, logout, isAuthenticated and loading.
import { createContext, useContext } from 'react';
import type { Session } from '../../db/types';
import type { SignOutResult } from '../../sync/auth';

export interface AuthValue {
  user: Session | null;
  /** True while the stored session is being read; nothing protected renders meanwhile. */
  loading: boolean;
  isAuthenticated: boolean;
  /** True once the device's mode says whose word the role is (until then the admin area waits). */
  roleSettled: boolean;
  /** True when the last sign-out came from another tab (the login screen tells the member why). */
  signedOutElsewhere: boolean;
  /** Whose session that sign-out ended. */
  signedOutEmail?: string;
  login: (email: string, password: string) => Promise<Session>;
  signup: (name: string, email: string, password: string) => Promise<Session>;
  /** Sends what is queued, then signs out; `force` signs out with what could not be sent (kept for the next sign-in here). */
  logout: (options?: { force?: boolean }) => Promise<SignOutResult>;
}

export const AuthContext = createContext<AuthValue | null>(null);

export function useAuth(): AuthValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside <AuthProvider>');
  return value;
}
