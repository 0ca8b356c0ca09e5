// Plain HTTP(S) requests to a real server process, with a trusted CA for the self-signed test
// certificate, the Origin header on writes, and a cookie jar of one session.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export class HttpClient {
  cookie?: string;

  constructor(
    public baseUrl: string,
    private readonly ca?: Buffer,
  ) {}

  send(method: string, path: string, payload?: unknown): Promise<HttpAnswer> {
    const url = new URL(path, this.baseUrl);
    const body = payload === undefined ? undefined : JSON.stringify(payload);
    const headers: Record<string, string> = {
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...(method === 'GET' ? {} : { origin: new URL(this.baseUrl).origin }),
      ...(this.cookie ? { cookie: this.cookie } : {}),
    };
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const req = request(url, { method, headers, ...(this.ca ? { ca: this.ca } : {}) }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          const setCookie = res.headers['set-cookie']?.find((cookie) => cookie.startsWith('ie_session='));
          if (setCookie) this.cookie = setCookie.split(';')[0];
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parse(text) });
        });
      });
      req.on('error', reject);
      req.end(body);
    });
  }
}

function parse(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return text;
  }
}
