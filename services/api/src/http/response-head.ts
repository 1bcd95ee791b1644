import type { Express, Response } from 'express';

/**
 * Runs `decorate` on every answer of `app` just before its head (status line and headers) is written: the moment its
 * status and Content-Type are settled, and the last one at which headers can still change. Hooked once into the
 * app's response prototype (`app.response`, Express's place for such extensions), so it costs a request no
 * allocation; every answer passes through `writeHead`, implicitly or not. Answers must therefore set their headers
 * with `res.set` and the like, never in writeHead's own argument, which `decorate` does not see.
 */
export function beforeEveryHead(app: Express, decorate: (res: Response) => void): void {
  const writeHead = app.response.writeHead as (this: Response, ...args: unknown[]) => Response;
  app.response.writeHead = function writeHeadDecorated(this: Response, ...args: unknown[]) {
    decorate(this);
    return writeHead.apply(this, args);
  } as Response['writeHead'];
}
