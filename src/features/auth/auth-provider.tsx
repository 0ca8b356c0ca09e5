import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { onSessionChange, readSession, readStoredSession, roleAuthority } from '../../db/members/session';
import type { Session } from '../../db/types';
import { useAsyncValue } from '../../hooks/use-async-value';
import { AuthContext, type AuthValue } from './auth-context';

interface AuthState {
  user: Session | null;
  loading: boolean;
  signedOutElsewhere?: boolean;
  /** Whose session another tab ended (their draft, if any, is named on the login page). */
  signedOutEmail?: string;
  roleSettled: boolean;
  /** A session change was heard (a sign-in here, another tab's): the start's read, if later, is older news. */
  heard?: boolean;
}

function initialState(): AuthState {
  const stored = readStoredSession();
  const roleSettled = roleAuthority() !== 'unsettled';
  // The stored session reads synchronously; only a browser whose storage throws needs the async read.
  return stored === undefined ? { user: null, loading: true, roleSettled } : { user: stored, loading: false, roleSettled };
}

/** Holds the signed-in user; follows sign-ins and sign-outs made in other tabs. */
export function AuthProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<AuthState>(initialState);
  const signingOutHere = useRef(false);

  useEffect(
    () =>
      onSessionChange((user) => {
        // A sign-out this tab did not ask for came from another tab: the login screen says so. (It
        // may be heard twice, through the storage event and the BroadcastChannel.)
        const elsewhere = !user && !signingOutHere.current;
        signingOutHere.current = false;
        setState((previous) => {
          const signedOutEmail = user ? undefined : elsewhere && previous.user ? previous.user.email : previous.signedOutEmail;
          return {
            user,
            loading: false,
            heard: true,
            signedOutElsewhere: !user && (previous.signedOutElsewhere === true || (elsewhere && previous.user !== null)),
            ...(signedOutEmail ? { signedOutEmail } : {}),
            roleSettled: roleAuthority() !== 'unsettled',
          };
        });
      }),
    [],
  );
  // The session as read at start (the IndexedDB copy, where the stored one could not be read):
  // it replaces the first guess if that was still loading or named someone else. Applied once, as
  // it arrives; session changes heard later win.
  const read = useAsyncValue(readSession, { key: 'session' });
  const [applied, setApplied] = useState(read);
  if (read !== applied) {
    setApplied(read);
    const user = read?.value ?? null;
    // Not over a session change heard meanwhile: a Sign In that ended before the read (a new browser's
    // makes no database, so it can end first) is not undone by the read's older answer.
    if (read && !state.heard && (state.loading || state.user?.email !== user?.email)) {
      setState({ user, loading: false, roleSettled: roleAuthority() !== 'unsettled' });
    }
  }

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

  const logout = useCallback(async (options: { force?: boolean } = {}) => {
    const [{ signOut }, { getRunningEngine }] = await Promise.all([import('../../sync/auth'), import('../../sync/start')]);
    signingOutHere.current = true;
    const result = await signOut(undefined, { ...options, engine: getRunningEngine() });
    if (!result.signedOut) signingOutHere.current = false;
    return result;
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
