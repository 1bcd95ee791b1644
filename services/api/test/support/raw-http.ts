import { request } from 'node:http';

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * A request whose path is sent exactly as written: fetch (and a URL string given to http.request) would resolve
 * dot segments first, and fetch adds `Cache-Control: no-cache` to a conditional request, which defeats a 304.
 */
export function rawRequest(
  url: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(url);
    const outgoing = request(
      { hostname, port, path, method: options.method ?? 'GET', headers: options.headers },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}
