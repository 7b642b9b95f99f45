# The identity broker's image (docs/deployment.md).
#
#   docker build -t identity-broker .                      # with a registry: Debian bookworm-slim as the base
#   scripts/image/build-offline.sh                         # without one: a base made by mmdebstrap, built by buildah
#
# Both stages start from BASE_IMAGE, any Debian bookworm (glibc, apt, a shell). The build stage needs Debian's
# package mirrors and the npm registry; the runtime stage downloads nothing.
ARG BASE_IMAGE=docker.io/library/debian:bookworm-slim

FROM ${BASE_IMAGE} AS build
# npm 11 runs a dependency's install script only when package.json's allowScripts names it (only `node` is).
ARG NPM_VERSION=11.19.1
ARG TARGETARCH
ENV DEBIAN_FRONTEND=noninteractive \
    npm_config_update_notifier=false
# curl fetches the Node that runs npm; tini is copied into the runtime stage.
RUN apt-get update -qq \
 && apt-get install -y -qq --no-install-recommends ca-certificates curl tini \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
COPY vendor ./vendor
# The libraries are npm workspaces: `npm ci` needs each one's package.json (their sources come below).
COPY libs/eu-wallet/package.json ./libs/eu-wallet/
COPY libs/face/package.json ./libs/face/
COPY libs/icao9303/package.json ./libs/icao9303/
COPY libs/verifier-sdk/package.json ./libs/verifier-sdk/
# A Node to run npm with: the project's own Node 24 (the version the lockfile pins for the `node` package, from the
# registry's node-linux-<arch> package) and npm from the registry. `npm ci` then installs the project's runtime
# itself, as on a developer's machine (README "Two commands"); that binary is the one the runtime stage runs.
# The optional secret build_ca is a CA bundle to trust for these downloads only (a TLS-intercepting proxy on the way
# to the registry; scripts/image/build-offline.sh passes the machine's): mounted for the step, in no layer.
RUN --mount=type=secret,id=build_ca set -eu; \
    if [ -s /run/secrets/build_ca ]; then export CURL_CA_BUNDLE=/run/secrets/build_ca; fi; \
    case "${TARGETARCH:-amd64}" in amd64) arch=x64 ;; arm64) arch=arm64 ;; *) echo "unsupported arch ${TARGETARCH}" >&2; exit 1 ;; esac; \
    node_version="$(sed -n '/"node_modules\/node": {/{n;s/.*"version": "\([^"]*\)".*/\1/p;}' package-lock.json)"; \
    test -n "$node_version"; \
    mkdir -p /opt/bootstrap/node /opt/bootstrap/npm; \
    curl -fsSL "https://registry.npmjs.org/node-linux-${arch}/-/node-linux-${arch}-${node_version}.tgz" | tar -xz -C /opt/bootstrap/node --strip-components=1; \
    curl -fsSL "https://registry.npmjs.org/npm/-/npm-${NPM_VERSION}.tgz" | tar -xz -C /opt/bootstrap/npm --strip-components=1; \
    ln -s /opt/bootstrap/node/bin/node /usr/local/bin/node; \
    ln -s /opt/bootstrap/npm/bin/npm-cli.js /usr/local/bin/npm; \
    node --version; npm --version
RUN --mount=type=secret,id=build_ca set -eu; \
    if [ -s /run/secrets/build_ca ]; then export npm_config_cafile=/run/secrets/build_ca NODE_EXTRA_CA_CERTS=/run/secrets/build_ca; fi; \
    npm ci --no-audit --no-fund --loglevel=warn
# `npm run build` is nest build (nest-cli.json): tsc over tsconfig.build.json (types checked), which also compiles
# scripts/ (some import test/).
COPY tsconfig.json tsconfig.build.json nest-cli.json ormconfig.ts ./
COPY src ./src
COPY libs ./libs
COPY scripts ./scripts
COPY test ./test
COPY assets ./assets
RUN set -eu; \
    npm run build; \
    # The Node 24 binary npm ci installed (node_modules/node), kept apart; the runtime stage puts it on PATH.
    install -m 0755 node_modules/node/bin/node /opt/node; \
    /opt/node --version; \
    npm prune --omit=dev --no-audit --no-fund --loglevel=warn; \
    rm -rf node_modules/node node_modules/.bin/node; \
    # onnxruntime-node ships every platform's library; only this one's is loaded.
    find node_modules/onnxruntime-node/bin/napi-v3 -mindepth 1 -maxdepth 1 ! -name linux -exec rm -rf {} +; \
    # What the service reads at run time beside its code: the face models inside @vladmandic/face-api and
    # @vladmandic/human, the calibration table (libs/face/calibration) and the report fonts (assets/fonts).
    test -f node_modules/@vladmandic/face-api/model/face_recognition_model.bin; \
    test -f node_modules/@vladmandic/human/models/antispoof.json; \
    test -f libs/face/calibration/face-api-resnet128.json; \
    test -f assets/fonts/DejaVuSans.ttf; \
    /opt/node -e "import('fontkit').then(() => console.log('production node_modules: fontkit (pdfkit) present'))"

FROM ${BASE_IMAGE}
ARG BROKER_UID=10001
# Files belong to root and are only readable by the service's user; it writes only to DATA_DIR (customer-test's
# generated secrets and embedded database, unused with DATABASE_URL in production) and to the compile cache.
RUN set -eu; \
    echo "broker:x:${BROKER_UID}:${BROKER_UID}:identity broker:/app:/usr/sbin/nologin" >> /etc/passwd; \
    echo "broker:x:${BROKER_UID}:" >> /etc/group; \
    mkdir -p /var/lib/identity-broker /var/cache/identity-broker; \
    chown "${BROKER_UID}:${BROKER_UID}" /var/lib/identity-broker /var/cache/identity-broker
COPY --from=build /usr/bin/tini-static /usr/bin/tini
COPY --from=build /opt/node /usr/local/bin/node
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist/src ./dist/src
COPY --from=build /app/dist/libs ./dist/libs
# The libraries as packages (links to dist/libs/*, made by the build): how dist/src imports them by name.
COPY --from=build /app/dist/node_modules ./dist/node_modules
COPY --from=build /app/libs/face/calibration ./libs/face/calibration
COPY --from=build /app/assets/fonts ./assets/fonts
# MALLOC_MMAP_THRESHOLD_: glibc gives blocks over 128 KiB (frames, decoded images) back to the system when freed,
# instead of raising the threshold and keeping them in its heaps (scripts/service-node-flags.ts, SERVICE_ENV).
ENV PORT=3000 \
    DATA_DIR=/var/lib/identity-broker \
    NODE_COMPILE_CACHE=/var/cache/identity-broker/node-compile-cache \
    MALLOC_MMAP_THRESHOLD_=131072
USER ${BROKER_UID}:${BROKER_UID}
EXPOSE 3000
# /health/live: the process answers (not /health/ready, which is 503 while draining and while the database is away).
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT || 3000}/health/live`, { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# tini is PID 1: it forwards SIGTERM to node, whose handler drains within SHUTDOWN_GRACE_SECONDS (25) and exits 0,
# and a SIGTERM that arrives before that handler is installed (during start-up) still ends the process.
# The migrations run at start-up (TypeORM migrationsRun), before the port opens. The V8 flag is the one every path
# that starts the service passes (scripts/service-node-flags.ts).
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "--max-semi-space-size=16", "dist/src/main.js"]
