# syntax=docker/dockerfile:1.7
# Stash: multi-stage build. The runtime image holds production dependencies, the built app and
# ffmpeg (video posters and durations); it runs as an unprivileged user with /app/data as a volume.

FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

FROM deps AS build
COPY . .
RUN npm run build

FROM node:20-bookworm-slim AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim AS runtime
RUN apt-get update \
 && apt-get install -y --no-install-recommends ffmpeg tini curl \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --home-dir /app --shell /usr/sbin/nologin stash
WORKDIR /app
# Debian's maintained ffmpeg parses untrusted uploads here, not the npm package's older static build.
# Two malloc arenas: glibc's one per thread kept freed libvips and upload buffers as RSS (decision 082).
ENV NODE_ENV=production \
    MALLOC_ARENA_MAX=2 \
    PORT=3000 \
    DATA_DIR=/app/data \
    FFMPEG_PATH=/usr/bin/ffmpeg \
    FFPROBE_PATH=/usr/bin/ffprobe
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY package.json tsconfig.json ./
COPY app ./app
COPY db ./db
COPY storage ./storage
COPY cli ./cli
COPY public ./public
# files/ exists in the image so a named volume mounted there starts owned by the app user.
RUN mkdir -p /app/data/files && chown -R stash:stash /app/data
USER stash
VOLUME ["/app/data"]
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD curl -fsS http://127.0.0.1:3000/api/health || exit 1
ENTRYPOINT ["/usr/bin/tini", "--"]
# The bundled host (build/host/server.mjs) runs on plain node; tsx stays for `npm run cli` and migrations.
# An 8 MB young generation: upload buffers die in scavenges instead of forcing full collections, and
# /f/ hits do not pay for a scavenge every hundred requests (decisions 085 and 091).
CMD ["node", "--max-semi-space-size=8", "--enable-source-maps", "build/host/server.mjs"]
