import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { onSessionChange, readSession, readStoredSession } from '../../db/accounts/session';
import type { Session } from '../../db/types';
import { AuthContext, type AuthValue } from './auth-context';

interface AuthState {
  user: Session | null;
  loading: boolean;
  signedOutElsewhere?: boolean;
}

function initialState(): AuthState {
  const stored = readStoredSession();
  // The stored session reads synchronously; only a browser whose storage throws needs the async read.
  return stored === undefined ? { user: null, loading: true } : { user: stored, loading: false };
}

/** Holds the signed-in user; follows sign-ins and sign-outs made in other tabs. */
export function AuthProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<AuthState>(initialState);
  const signingOutHere = useRef(false);

  useEffect(() => {
    let active = true;
    const stop = onSessionChange((user) => {
      // A sign-out this tab did not ask for came from another tab: the login screen says so. (It
      // may be heard twice, through the storage event and the BroadcastChannel.)
      const elsewhere = !user && !signingOutHere.current;
      signingOutHere.current = false;
      setState((previous) => ({
        user,
        loading: false,
        signedOutElsewhere: !user && (previous.signedOutElsewhere === true || (elsewhere && previous.user !== null)),
      }));
    });
    void readSession().then((user) => {
      if (active) setState((previous) => (previous.loading || previous.user?.email !== user?.email ? { user, loading: false } : previous));
    });
    return () => {
      active = false;
      stop();
    };
  }, []);

  // Accounts (and with them Dexie) load only when someone signs in or up; src/sync/auth sends
  // them to the server on a connected device and to this browser's accounts otherwise.
  const login = useCallback(async (email: string, password: string) => {
    const { signIn } = await import('../../sync/auth');
    return signIn(email, password);
  }, []);

  const signup = useCallback(async (name: string, email: string, password: string) => {
    const { signUp } = await import('../../sync/auth');
    return signUp(name, email, password);
  }, []);

  const logout = useCallback(async () => {
    const { signOut } = await import('../../sync/auth');
    signingOutHere.current = true;
    await signOut();
  }, []);

  const value = useMemo<AuthValue>(
    () => ({
      ...state,
      signedOutElsewhere: state.signedOutElsewhere ?? false,
      isAuthenticated: state.user !== null,
      login,
      signup,
      logout,
    }),
    [state, login, signup, logout],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
