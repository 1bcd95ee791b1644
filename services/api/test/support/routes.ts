import type { Router } from 'express';

/** Every method and path an app registers (`POST /api/products/:id`), walking its router stack, mounts included. */
export function registeredRoutes(router: Router, prefix = ''): string[] {
  return router.stack.flatMap((layer) => {
    if (layer.route) {
      const methods = Object.keys((layer.route as unknown as { methods: Record<string, boolean> }).methods);
      // A route may be registered for several paths at once (`router.get([...paths], …)`).
      const paths: unknown[] = [layer.route.path].flat();
      return methods.flatMap((method) => paths.map((path) => `${method.toUpperCase()} ${prefix}${path}`));
    }
    const mounted = layer.handle as Partial<Router>;
    if (!mounted.stack) return [];
    const path = (layer as unknown as { rawPath?: string }).rawPath ?? '';
    return registeredRoutes(mounted as Router, prefix + (path === '/' ? '' : path));
  });
}

/** The routes that change something: every method but GET (HEAD and OPTIONS are never registered on their own). */
export const isWriteRoute = (route: string) => !route.startsWith('GET ');
