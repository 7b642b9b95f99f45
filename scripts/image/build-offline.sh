#!/usr/bin/env bash
# Builds the service's image (./Dockerfile) the way a machine without an image registry can: the Debian base is made
# by mmdebstrap from Debian's package mirrors, imported into buildah's storage, and `buildah build` builds the
# Dockerfile on it (the build stage reaches Debian's mirrors and the npm registry). docs/deployment.md.
#
#   scripts/image/build-offline.sh            # -> localhost/identity-broker:dev (IMAGE= names another)
#
# Cached between runs on one machine: the base's root file system (IMAGE_CACHE_DIR, default
# ~/.cache/identity-broker-image; made again when older than IMAGE_BASE_MAX_AGE_DAYS, 7, for Debian's security
# updates), the base image (imported again only when that file changed) and buildah's layers (npm ci runs again only
# when package.json, the lockfile or vendor/ changed). IMAGE_PRUNE=1 then removes the images no tag needs any more
# (an earlier build's), keeping the layers of this one. Needs root, mmdebstrap and buildah (Debian packages).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cache="${IMAGE_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/identity-broker-image}"
image="${IMAGE:-localhost/identity-broker:dev}"
base="${IMAGE_BASE:-localhost/identity-broker-base:bookworm}"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
security="${DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}"
max_age_days="${IMAGE_BASE_MAX_AGE_DAYS:-7}"
rootfs="$cache/bookworm-minbase.tar"
stamp="$cache/bookworm-minbase.imported"

for tool in mmdebstrap buildah; do
  command -v "$tool" >/dev/null || { echo "build-offline: $tool is missing (apt-get install $tool)" >&2; exit 1; }
done
mkdir -p "$cache"
started=$SECONDS

# 1. The base: Debian bookworm, variant minbase (essential packages and apt: a shell, glibc, libstdc++ for Node),
#    without documentation, manual pages and translations, as Debian's bookworm-slim leaves them out.
if [[ ! -s "$rootfs" ]] || [[ -n "$(find "$rootfs" -mtime "+$max_age_days" -print)" ]]; then
  echo "build-offline: mmdebstrap bookworm (minbase) -> $rootfs"
  mmdebstrap --quiet --mode=root --variant=minbase \
    --aptopt='APT::Install-Recommends "false"' \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/doc/*' \
    --dpkgopt='path-include=/usr/share/doc/*/copyright' --dpkgopt='path-exclude=/usr/share/locale/*' \
    --dpkgopt='path-exclude=/usr/share/info/*' \
    bookworm "$cache/bookworm-minbase.partial.tar" \
    "deb $mirror bookworm main" "deb $mirror bookworm-updates main" "deb $security bookworm-security main"
  mv "$cache/bookworm-minbase.partial.tar" "$rootfs"
fi
digest="$(sha256sum "$rootfs" | cut -d' ' -f1)"
# 2. Into buildah's storage as $base, only when the file changed (a new import is a new image, which would make
#    every cached layer of the build miss).
if [[ "$(cat "$stamp" 2>/dev/null)" != "$digest" ]] || ! buildah inspect --type image "$base" >/dev/null 2>&1; then
  echo "build-offline: importing the base as $base"
  ctr="$(buildah from --pull=never scratch)"
  buildah add --quiet "$ctr" "$rootfs" / >/dev/null
  buildah config --cmd '["/bin/bash"]' --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    --label org.opencontainers.image.description="Debian bookworm minbase made by mmdebstrap" \
    --label identity-broker.base.rootfs-sha256="$digest" "$ctr"
  buildah commit --quiet --rm "$ctr" "$base" >/dev/null
  echo "$digest" >"$stamp"
fi
echo "build-offline: base ready after $((SECONDS - started)) s"

# 3. The Dockerfile on that base. --isolation chroot: RUN steps need no OCI runtime or cgroups (containers in
#    containers, CI sandboxes); chroot isolation shares the host's network, which the build stage needs.
#    --format docker keeps HEALTHCHECK (the OCI image format has no such field); --layers caches each step.
#    BUILD_CA_FILE (default: the machine's CA bundle) is what the build stage trusts to reach the npm registry, for
#    machines whose egress passes a TLS-intercepting proxy; a secret mount, in no layer of the image.
ca="${BUILD_CA_FILE:-/etc/ssl/certs/ca-certificates.crt}"
secret=(); [[ -s "$ca" ]] && secret=(--secret "id=build_ca,src=$ca")
build=(buildah build --quiet --isolation chroot --network host --layers --format docker --pull=never "${secret[@]}"
  --build-arg "BASE_IMAGE=$base" --build-arg "TARGETARCH=$(dpkg --print-architecture)" -f "$root/Dockerfile")
"${build[@]}" -t "$image" "$root" >/dev/null
# The build stage tagged too (its layers are all cached by now): its npm ci layer has no tagged descendant otherwise,
# and a prune would take it, so the next build would install every package again.
"${build[@]}" --target build -t "${IMAGE_BUILD_STAGE:-localhost/identity-broker-build:cache}" "$root" >/dev/null
if [[ "${IMAGE_PRUNE:-0}" == 1 ]]; then buildah rmi --prune >/dev/null 2>&1 || true; fi
echo "build-offline: $image built in $((SECONDS - started)) s ($(buildah images --noheading --format '{{.ID}} {{.Size}}' "$image"))"
