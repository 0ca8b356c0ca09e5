// The auth context of nobody signed in, for the sign-in forms' tests: every action a mock unless given.
import { vi } from 'vitest';
import type { AuthValue } from '../../src/features/auth/auth-context';

export const signedOutAuth = (overrides: Partial<AuthValue> = {}): AuthValue =>
  ({
    login: vi.fn(),
    signup: vi.fn(),
    logout: vi.fn(),
    user: null,
    loading: false,
    isAuthenticated: false,
    ...overrides,
  }) as unknown as AuthValue;
