// The auth context of product.md §4: the user, login, signup, logout, isAuthenticated and loading.
import { createContext, useContext } from 'react';
import type { Session } from '../../db/types';

export interface AuthValue {
  user: Session | null;
  /** True while the stored session is being read; nothing protected renders meanwhile. */
  loading: boolean;
  isAuthenticated: boolean;
  /** True once the device's mode says whose word the role is (until then the admin area waits). */
  roleSettled: boolean;
  /** True when the last sign-out came from another tab (the login screen tells the member why). */
  signedOutElsewhere: boolean;
  login: (email: string, password: string) => Promise<Session>;
  signup: (name: string, email: string, password: string) => Promise<Session>;
  logout: () => Promise<void>;
}

export const AuthContext = createContext<AuthValue | null>(null);

export function useAuth(): AuthValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside <AuthProvider>');
  return value;
}
