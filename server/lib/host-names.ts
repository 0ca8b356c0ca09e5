// The names this server answers to. A page on an attacker's name that the attacker's DNS re-points
// to this server (DNS rebinding) sends its own name as Host and as Origin, so the Origin check
// alone would let it write: every request whose Host (X-Forwarded-Host under TRUST_PROXY) is not
// one of these names is refused with 421 before anything else runs (plugins/security.ts).
//
// The names, without ports (a port adds nothing against rebinding, and Docker or an SSH tunnel
// may map it): loopback ones (localhost, *.localhost, 127.x.x.x, [::1]); HOST when it names one
// address or name; when HOST listens on every interface (0.0.0.0, ::) or behind TRUST_PROXY, this
// machine's interface addresses, os.hostname() and its .local name; and PUBLIC_ORIGIN's names.
import { hostname as machineName, networkInterfaces } from 'node:os';

export interface HostOptions {
  /** HOST: the address the server listens on (default 127.0.0.1). */
  listenHost?: string;
  /** PUBLIC_ORIGIN: the origins people reach the server at (e.g. https://forum.example.com). */
  publicOrigins?: readonly string[];
  trustProxy?: boolean;
}

/** The hostname of a Host header value (lower case, IPv6 in brackets, no port, no final dot); undefined when it is not one. */
export function canonicalHost(host: string): string | undefined {
  if (!host || /[\s/\\?#@]/.test(host)) return undefined;
  try {
    const url = new URL(`http://${host}`);
    return url.hostname.replace(/\.$/, '') || undefined;
  } catch {
    return undefined;
  }
}

const LISTEN_ANY = new Set(['0.0.0.0', '::', '[::]', '']);
/** At most one look at the machine's interfaces per this many ms (a refused name asks again). */
const REFRESH_MS = 10_000;

export class HostNames {
  private readonly fixed = new Set<string>(['localhost', '127.0.0.1', '[::1]']);
  private machine = new Set<string>();
  private readonly withMachine: boolean;
  private lookedAt = 0;

  constructor(
    options: HostOptions = {},
    private readonly now: () => number = Date.now,
  ) {
    const listen = options.listenHost?.trim() ?? '127.0.0.1';
    const anyInterface = LISTEN_ANY.has(listen);
    if (!anyInterface) this.add(this.fixed, listen.includes(':') && !listen.startsWith('[') ? `[${listen}]` : listen);
    for (const origin of options.publicOrigins ?? []) this.add(this.fixed, new URL(origin).host);
    this.withMachine = anyInterface || (options.trustProxy ?? false);
  }

  /** Whether `host` (a Host header value, with or without a port) names this server. */
  allows(host: string | undefined): boolean {
    const name = canonicalHost(host ?? '');
    if (!name) return false;
    if (this.fixed.has(name) || name.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(name)) return true;
    if (!this.withMachine) return false;
    if (this.machine.has(name)) return true;
    // Addresses change (DHCP, another network): look again, at most every REFRESH_MS.
    if (this.now() - this.lookedAt < REFRESH_MS && this.lookedAt > 0) return false;
    this.machine = this.machineNames();
    this.lookedAt = this.now();
    return this.machine.has(name);
  }

  private machineNames(): Set<string> {
    const names = new Set<string>();
    for (const addresses of Object.values(networkInterfaces())) {
      for (const { address, family } of addresses ?? []) this.add(names, family === 'IPv6' ? `[${address}]` : address);
    }
    const own = machineName();
    this.add(names, own);
    if (own && !own.includes('.')) this.add(names, `${own}.local`);
    return names;
  }

  private add(names: Set<string>, host: string): void {
    const name = canonicalHost(host);
    if (name) names.add(name);
  }
}
