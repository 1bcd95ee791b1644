# One image for every role; the container's command picks the role (see docker-compose.yml):
#   node --import tsx services/api/src/main.ts | projections/src/main.ts | workers/src/main.ts | scripts/migrate.ts
FROM node:20-bookworm-slim

# npm 11 honours package.json "allowScripts" (only the install scripts we reviewed run; docs/decisions/001).
RUN npm install -g npm@11 && npm cache clean --force

WORKDIR /app

# The whole tree, so every workspace the lockfile names is present for `npm ci` (.dockerignore keeps the bulk out).
COPY . .
# tsx and the web build tools are devDependencies, and the roles run through tsx: install everything.
# npm install is the fallback when npm ci finds optional platform packages missing from the lockfile (it was
# written against a registry without them; see .ci/run); it keeps every locked version.
RUN (npm ci --include=dev || npm install --include=dev --no-audit --no-fund) && npm cache clean --force \
  && npm run build --workspace web --if-present \
  && mkdir -p /data && chown node:node /data

# Production: a role refuses to start without PUBLIC_URL, and without PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET unless
# PAYPAL_SIMULATED=1 says explicitly that it takes no money (docker-compose.yml's app profile does so).
ENV NODE_ENV=production DATA_DIR=/data PORT=5000
USER node
EXPOSE 5000
CMD ["node", "--import", "tsx", "services/api/src/main.ts"]
