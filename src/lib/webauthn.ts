// Whether this browser has WebAuthn (issue 63): without it, no passkey button is shown.

/** True when the browser can make and use passkeys (PublicKeyCredential exists). */
export const passkeysSupported = (): boolean => typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';
