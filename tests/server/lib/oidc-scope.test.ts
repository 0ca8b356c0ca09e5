// What a provider is asked for (issue 63 review): offline_access, and the consent prompt it needs,
// only where the discovery document lists the scope. Google Workspace refuses offline_access, and
// asking for consent at every sign-in would show most members a consent screen each time.
import { describe, expect, it } from 'vitest';
import { scopeFor } from '../../../server/lib/oidc';

describe('scopeFor', () => {
  it('asks offline_access with consent where the provider lists it', () => {
    expect(scopeFor({ scopes_supported: ['openid', 'email', 'offline_access'] })).toEqual({
      scope: 'openid email profile offline_access',
      prompt: 'consent',
    });
  });

  it('asks neither where the provider does not list it, or lists no scopes', () => {
    expect(scopeFor({ scopes_supported: ['openid', 'email', 'profile'] })).toEqual({ scope: 'openid email profile' });
    expect(scopeFor({})).toEqual({ scope: 'openid email profile' });
  });
});
