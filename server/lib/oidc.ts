// The forum as an OpenID Connect relying party (issue 63), through openid-client (certified): the
// provider's discovery document once per configuration (its keys with it), an authorization URL with
// PKCE (S256), state and nonce, and the callback's checks (state, the `iss` parameter against
// mix-up, the ID token's signature, issuer, audience, expiry and nonce, PKCE at the token endpoint).
// None of those checks is ever turned off here; http is allowed only for a provider on this machine
// (the tests' in-process provider). The claims are the ID token's, completed by the userinfo
// endpoint's when the provider keeps the profile there.
import * as client from 'openid-client';
import type { OidcConfig } from '../config';

/** What every request asks: the profile and email for the account. */
export const OIDC_SCOPE = 'openid email profile';

/**
 * The scope and prompt a provider is asked with: offline_access (the recheck's refresh token, which
 * needs the member's consent: OpenID Connect Core 11) only where the discovery document lists it.
 * Google Workspace refuses the scope, and a consent screen at every sign-in is no way to live.
 */
export function scopeFor(metadata: { scopes_supported?: string[] }): { scope: string; prompt?: 'consent' } {
  return metadata.scopes_supported?.includes('offline_access')
    ? { scope: `${OIDC_SCOPE} offline_access`, prompt: 'consent' }
    : { scope: OIDC_SCOPE };
}

/** How long one request to the provider may take, in seconds. */
const PROVIDER_TIMEOUT_S = 10;

/** What a sign-in remembers between /api/oidc/start and the callback (the 'oidc' challenge). */
export interface OidcFlow {
  state: string;
  nonce: string;
  verifier: string;
  redirectUri: string;
  returnTo: string;
}

/** The provider's account as the forum reads it. */
export interface ProviderClaims {
  /** The provider's subject, with its issuer: users.oidc_subject. */
  subject: string;
  email?: string;
  emailVerified: boolean;
  name?: string;
  /** OIDC_GROUPS_CLAIM's names, when it is set and the claim is a list (or one name). */
  groups?: string[];
}

/** The provider could not be reached (or answered with a server error): nothing was decided. */
export class ProviderUnavailable extends Error {
  override name = 'ProviderUnavailable';
}

const isLoopback = (issuer: string) => ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(issuer).hostname);

/** A network failure or a provider's 5xx, as opposed to a refusal (a bad code, a forged token). */
function unreachable(error: unknown): boolean {
  if (error instanceof client.ResponseBodyError) return error.status >= 500;
  if (error instanceof client.ClientError) return error.code === 'OAUTH_RESPONSE_IS_NOT_CONFORM' && /5\d\d/.test(error.message);
  // fetch's own failures (refused connection, DNS, timeout) are TypeErrors or AbortErrors.
  return error instanceof TypeError || (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError'));
}

const parties = new WeakMap<OidcConfig, RelyingParty>();

/** The relying party of `config` (one per configuration: its discovery is cached). */
export function relyingParty(config: OidcConfig): RelyingParty {
  let party = parties.get(config);
  if (!party) parties.set(config, (party = new RelyingParty(config)));
  return party;
}

export class RelyingParty {
  private discovered?: Promise<client.Configuration>;
  private readonly settings: OidcConfig;

  constructor(settings: OidcConfig) {
    this.settings = settings;
  }

  /** The provider's metadata and keys (fetched once; a failure is forgotten, so the next sign-in tries again). */
  private configuration(): Promise<client.Configuration> {
    if (!this.discovered) {
      const { issuer, clientId, clientSecret } = this.settings;
      const insecure = isLoopback(issuer) ? [client.allowInsecureRequests] : [];
      this.discovered = (async () => {
        const found = await client.discovery(new URL(issuer), clientId, clientSecret, undefined, {
          execute: insecure,
          timeout: PROVIDER_TIMEOUT_S,
        });
        // The token endpoint's authentication: client_secret_basic (the default when the provider
        // lists none) unless the provider lists only client_secret_post.
        const methods = found.serverMetadata().token_endpoint_auth_methods_supported;
        const basic = !methods || methods.includes('client_secret_basic');
        const config = new client.Configuration(
          found.serverMetadata(),
          clientId,
          clientSecret,
          basic ? client.ClientSecretBasic(clientSecret) : client.ClientSecretPost(clientSecret),
        );
        for (const apply of insecure) apply(config);
        config.timeout = PROVIDER_TIMEOUT_S;
        return config;
      })();
      this.discovered.catch(() => (this.discovered = undefined));
    }
    return this.discovered.catch((error: unknown) => {
      throw new ProviderUnavailable(`the provider's discovery failed: ${(error as Error).message}`);
    });
  }

  /**
   * A new sign-in: the provider's authorization URL and what the callback checks it against.
   * `reauthenticate` (a confirmation, issue 63: Delete my account without a password) asks the
   * provider to authenticate the member again (`max_age=0`, OpenID Connect Core 3.1.2.1), rather than
   * answer from the session it may already have in this browser.
   */
  async begin(redirectUri: string, returnTo: string, reauthenticate = false): Promise<{ url: string; flow: OidcFlow }> {
    const config = await this.configuration();
    const flow: OidcFlow = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      verifier: client.randomPKCECodeVerifier(),
      // As the token request will write it (a default port dropped): the provider compares the two exactly.
      redirectUri: new URL(redirectUri).href,
      returnTo,
    };
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: flow.redirectUri,
      ...scopeFor(config.serverMetadata()),
      response_type: 'code',
      code_challenge: await client.calculatePKCECodeChallenge(flow.verifier),
      code_challenge_method: 'S256',
      state: flow.state,
      nonce: flow.nonce,
      ...(reauthenticate ? { max_age: '0' } : {}),
    });
    return { url: url.href, flow };
  }

  /**
   * The callback: every check of openid-client, then the code for tokens; the member's claims and
   * the refresh token. Throws ProviderUnavailable when the provider cannot be reached, any other
   * error when the answer is refused (its message is for the log, never for the member).
   */
  async finish(callbackUrl: URL, flow: OidcFlow): Promise<{ claims: ProviderClaims; refreshToken: string | null }> {
    const config = await this.configuration();
    try {
      const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: flow.verifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
      const claims = await this.claimsOf(config, tokens);
      return { claims, refreshToken: tokens.refresh_token ?? null };
    } catch (error) {
      if (unreachable(error)) throw new ProviderUnavailable((error as Error).message);
      throw error;
    }
  }

  /**
   * The recheck: the refresh token grant. 'removed' when the provider refuses it (the account is gone
   * or disabled, the grant revoked); ProviderUnavailable when it cannot be reached.
   */
  async refresh(refreshToken: string): Promise<{ claims: ProviderClaims; refreshToken: string } | 'removed'> {
    const config = await this.configuration();
    try {
      const tokens = await client.refreshTokenGrant(config, refreshToken);
      return { claims: await this.claimsOf(config, tokens), refreshToken: tokens.refresh_token ?? refreshToken };
    } catch (error) {
      if (unreachable(error)) throw new ProviderUnavailable((error as Error).message);
      if (error instanceof client.ResponseBodyError) return 'removed';
      throw error;
    }
  }

  /** The ID token's claims, with the userinfo endpoint's for what it lacks (same subject, checked). */
  private async claimsOf(config: client.Configuration, tokens: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers) {
    const idToken = tokens.claims();
    if (!idToken) throw new Error('the provider sent no ID token');
    let claims: Record<string, unknown> = { ...idToken };
    if (config.serverMetadata().userinfo_endpoint && tokens.access_token) {
      const info = await client.fetchUserInfo(config, tokens.access_token, idToken.sub);
      claims = { ...info, ...claims };
    }
    return this.read(claims);
  }

  private read(claims: Record<string, unknown>): ProviderClaims {
    const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : undefined);
    const groupsClaim = this.settings.groupsClaim;
    const listed = groupsClaim ? claims[groupsClaim] : undefined;
    const groups = Array.isArray(listed)
      ? listed.filter((name): name is string => typeof name === 'string')
      : typeof listed === 'string'
        ? [listed]
        : groupsClaim
          ? []
          : undefined;
    return {
      subject: `${this.settings.issuer} ${String(claims.sub)}`,
      email: text(claims.email)?.toLowerCase(),
      // Entra ID sends no email_verified; its optional claim xms_edov says the email's domain is the
      // tenant's own, verified by its owner.
      emailVerified: [claims.email_verified, claims.xms_edov].some((said) => said === true || said === 'true'),
      name: text(claims.name) ?? text(claims.preferred_username),
      groups,
    };
  }
}
