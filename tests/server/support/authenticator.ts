// A software WebAuthn authenticator for the server's passkey tests: P-256 keys from node:crypto,
// "none" attestation, a signature counter, and the answers a browser would send (the JSON that
// @simplewebauthn/browser makes), built byte by byte as the WebAuthn spec lays them out: the
// authenticator data (SHA-256 of the rpID, flags, counter, and at registration the attested
// credential: AAGUID, id, COSE public key), the client data JSON, CBOR from the encoder
// @simplewebauthn/server itself uses. Each answer can be bent (another origin, rpID or user handle)
// to show the server refuses it.
import { createHash, createPublicKey, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

const b64url = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

/** Flags of the authenticator data: user present, user verified, attested credential data included. */
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

/** What the server's options name (the JSON of generateRegistrationOptions / generateAuthenticationOptions). */
interface Options {
  challenge: string;
  rp?: { id?: string };
  rpId?: string;
  user?: { id: string };
}

/** One credential this authenticator holds. */
export interface SoftCredential {
  id: string;
  rpId: string;
  /** The user handle the site gave at registration (base64url). */
  userHandle: string;
  privateKey: KeyObject;
  counter: number;
}

/** How an answer may be bent from what a browser on `origin` would send. */
export interface Bend {
  origin?: string;
  rpId?: string;
  userHandle?: string;
  /** The counter to sign with (default: one more than the last). */
  counter?: number;
  /** False: the user was present but not verified (no PIN or biometric); default true. */
  verified?: boolean;
}

export class SoftAuthenticator {
  readonly credentials: SoftCredential[] = [];

  constructor(readonly origin: string) {}

  /**
   * Makes a new credential for the registration `options` (or registers `again`, one it holds, as a
   * copied or shared passkey would be); returns the browser's answer (RegistrationResponseJSON).
   */
  register(options: Options, bend: Bend = {}, again?: SoftCredential) {
    const rpId = bend.rpId ?? options.rp?.id ?? new URL(this.origin).hostname;
    const { privateKey, publicKey } = again
      ? { privateKey: again.privateKey, publicKey: createPublicKey(again.privateKey) }
      : generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const cose = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
    const id = again ? Buffer.from(again.id, 'base64url') : randomBytes(16);
    const credentialData = Buffer.concat([Buffer.alloc(16), u16(id.length), id, cose]);
    const authData = Buffer.concat([sha256(rpId), Buffer.from([UP | UV | AT]), u32(0), credentialData]);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Uint8Array | Map<string, never>>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, never>()],
        ['authData', authData],
      ]),
    );
    const credential: SoftCredential = { id: b64url(id), rpId, userHandle: options.user!.id, privateKey, counter: 0 };
    if (!again) this.credentials.push(credential);
    return {
      id: credential.id,
      rawId: credential.id,
      type: 'public-key',
      response: {
        clientDataJSON: this.clientData('webauthn.create', options.challenge, bend.origin),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** Signs the sign-in `options` with `credential` (default: the newest); returns the browser's answer (AuthenticationResponseJSON). */
  assert(options: Options, credential = this.credentials.at(-1)!, bend: Bend = {}) {
    credential.counter = bend.counter ?? credential.counter + 1;
    const authenticatorData = Buffer.concat([
      sha256(bend.rpId ?? credential.rpId),
      Buffer.from([bend.verified === false ? UP : UP | UV]),
      u32(credential.counter),
    ]);
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, bend.origin);
    const signature = sign(
      'sha256',
      Buffer.concat([authenticatorData, sha256(Buffer.from(clientDataJSON, 'base64url'))]),
      credential.privateKey,
    );
    return {
      id: credential.id,
      rawId: credential.id,
      type: 'public-key',
      response: {
        clientDataJSON,
        authenticatorData: b64url(authenticatorData),
        signature: b64url(signature),
        userHandle: bend.userHandle ?? credential.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  private clientData(type: string, challenge: string, origin = this.origin): string {
    return b64url(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }
}

function u16(value: number): Buffer {
  const bytes = Buffer.alloc(2);
  bytes.writeUInt16BE(value);
  return bytes;
}

function u32(value: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value);
  return bytes;
}
