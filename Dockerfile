# One image for every role, running `npm run build`'s JavaScript with production dependencies only; the container's
# command picks the role (see docker-compose.yml):
#   node services/api/src/main.js | projections/src/main.js | workers/src/main.js | scripts/migrate.js
# Node 22: the LTS line in support (Node 20 reached its end of life in April 2026), and what the web build's
# dependencies (Uppy's) require.

# Build: every dependency, the roles compiled to JavaScript and the web client built, all into dist/.
FROM node:22-bookworm-slim AS build
# npm 11 honours package.json "allowScripts" (only the install scripts we reviewed run; docs/decisions/001).
RUN npm install -g npm@11 && npm cache clean --force
WORKDIR /src
COPY . .
# npm install is the fallback when npm ci finds optional platform packages missing from the lockfile (it was
# written against a registry without them; see .ci/run); it keeps every locked version.
RUN (npm ci --include=dev || npm install --include=dev --no-audit --no-fund) && npm run build

# Production dependencies of the workspaces the roles are made of, and nothing else (no tsx, vite, React or test
# tools). The workspace links npm makes here point at ../../domain etc., where the runtime stage puts the built
# packages.
FROM node:22-bookworm-slim AS dependencies
RUN npm install -g npm@11 && npm cache clean --force
WORKDIR /src
COPY package.json package-lock.json ./
COPY domain/package.json domain/
COPY platform/package.json platform/
COPY contract/package.json contract/
COPY services/api/package.json services/api/
COPY services/paypal-sandbox/package.json services/paypal-sandbox/
COPY projections/package.json projections/
COPY workers/package.json workers/
COPY web/package.json web/
RUN npm ci --omit=dev --no-audit --no-fund \
    -w domain -w platform -w contract -w services/api -w services/paypal-sandbox -w projections -w workers \
  && npm cache clean --force

FROM node:22-bookworm-slim
ENV NODE_ENV=production DATA_DIR=/data PORT=5000
WORKDIR /app
COPY --from=dependencies /src/node_modules ./node_modules
COPY --from=build /src/dist/ ./
RUN mkdir -p /data && chown node:node /data
# Production: a role refuses to start without PUBLIC_URL, and without PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET unless
# PAYPAL_SIMULATED=1 says explicitly that it takes no money (docker-compose.yml's app profile does so).
USER node
EXPOSE 5000
# The api's liveness; docker-compose.yml gives the projections and workers, which serve no HTTP, their own check.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "services/api/src/main.js"]
