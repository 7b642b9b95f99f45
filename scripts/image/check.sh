#!/usr/bin/env bash
# Starts the image (scripts/image/build-offline.sh built it) with podman against this machine's PostgreSQL and Redis,
# in production mode with a read-only root file system, as Kubernetes runs it (deploy/kubernetes; the trust anchors
# production requires are real CSCA certificates of the test fixtures, mounted as the ConfigMap would be), and checks:
# /health/ready answers 200 (migrations ran on a fresh database, signing keys loaded, face models warm, Redis
# answers), the image's HEALTHCHECK passes, the processes run as the image's non-root user, and SIGTERM ends the
# service with exit code 0 and "shutdown complete" within SHUTDOWN_GRACE_SECONDS. docs/deployment.md.
#
#   scripts/image/check.sh                    # IMAGE (localhost/identity-broker:dev), DATABASE_URL, REDIS_URL
#
# DATABASE_URL names the server (default postgresql://postgres@127.0.0.1:5432/test); the check creates a database of
# its own there and drops it after. PODMAN_RUNTIME picks the OCI runtime; by default podman's own is tried, then runc.
# When podman cannot run a container at all, it says why and the image's file system stands in (IMAGE_CHECK_STANDIN=0
# forbids that): buildah mounts it, and its tini and node run chrooted in their own mount and PID namespaces, as the
# image's user, on the same read-only root, tmpfs folders and mounts, with the same checks.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
image="${IMAGE:-localhost/identity-broker:dev}"
server_url="${DATABASE_URL:-postgresql://postgres@127.0.0.1:5432/test}"
redis_url="${REDIS_URL:-redis://127.0.0.1:6379}"
grace=25
name="identity-broker-check-$$"
database="image_check_$$"
prefix="image-check-$$:"
trust="$root/test/fixtures/icao/real-documents/csca"
log() { echo "image-check: $*"; }
fail() { echo "image-check: $*" >&2; exit 1; }
admin_url="${server_url%/*}/postgres"
tmp="$(mktemp -d)"
mode=""
standin_pid=""
standin_ctr=""
cleanup() {
  if [[ "$mode" == podman ]]; then podman rm -f "$name" >/dev/null 2>&1 || true; fi
  if [[ -n "$standin_pid" ]]; then { kill -KILL "$standin_pid" && wait "$standin_pid"; } 2>/dev/null || true; fi
  if [[ -n "$standin_ctr" ]]; then buildah rm "$standin_ctr" >/dev/null 2>&1 || true; fi
  psql -q "$admin_url" -c "DROP DATABASE IF EXISTS $database WITH (FORCE)" >/dev/null 2>&1 || true
  redis-cli -u "$redis_url" --scan --pattern "${prefix}*" 2>/dev/null | xargs -r redis-cli -u "$redis_url" del >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT

port="$(node -e "const s = require('net').createServer().listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); })")"
secret() { head -c 32 /dev/urandom | base64 | tr -d '\n'; }
env_vars=(APP_ENV=production "PORT=$port" BASE_URL=https://broker.example.test TRUST_PROXY=true
  "DATABASE_URL=${server_url%/*}/$database" "REDIS_URL=$redis_url" "REDIS_KEY_PREFIX=$prefix"
  "RATE_LIMIT_REDIS_PREFIX=${prefix}ratelimit:" "SHUTDOWN_GRACE_SECONDS=$grace" TRUST_CSCA_PATHS=/etc/identity-broker/trust
  "DATA_ENCRYPTION_KEY=$(secret)" "COOKIE_KEYS=$(secret)" "SUBJECT_SECRET=$(secret)" "PAIRWISE_SECRET=$(secret)")

# 1. Can podman run a container here? Limits at or under this process's own: podman's defaults (nofile 1048576,
#    nproc 4194304) are refused where the runtime may not raise them (no CAP_SYS_RESOURCE, as in some CI sandboxes).
limits=(--ulimit "nofile=$(ulimit -n):$(ulimit -n)" --ulimit nproc=4096:4096)
runtime=()
runtime_name=""
errors=""
if command -v podman >/dev/null; then
  for candidate in ${PODMAN_RUNTIME:-default runc}; do
    try=(); [[ "$candidate" != default ]] && try=(--runtime "$candidate")
    if [[ "$candidate" != default ]] && ! command -v "$candidate" >/dev/null; then errors+="  $candidate: not installed"$'\n'; continue; fi
    if version="$(podman "${try[@]}" run --rm --no-healthcheck --network host "${limits[@]}" --entrypoint node "$image" --version 2>"$tmp/err")"; then
      runtime=("${try[@]}"); runtime_name="$candidate"; mode=podman; break
    fi
    errors+="  $candidate: $(grep -v '^time=' "$tmp/err" | tr '\n' ' ')"$'\n'
  done
else
  errors+="  podman: not installed"$'\n'
fi
if [[ "$mode" == podman ]]; then
  log "podman runs containers here (runtime $runtime_name; the image's node $version)"
  if [[ -n "$errors" ]]; then log "before it:"$'\n'"$errors"; fi
elif [[ "${IMAGE_CHECK_STANDIN:-1}" != 0 ]]; then
  log "podman cannot run a container here:"$'\n'"$errors""image-check: the image's file system stands in (buildah mount, chroot, namespaces)"
  mode=standin
else
  fail "podman cannot run a container here:"$'\n'"$errors"
fi

psql -q "$admin_url" -c "CREATE DATABASE $database" >/dev/null
started=$SECONDS

# 2. Start it.
if [[ "$mode" == podman ]]; then
  podman "${runtime[@]}" run -d --name "$name" --network host "${limits[@]}" \
    --read-only --tmpfs /var/lib/identity-broker:rw,mode=1777 --tmpfs /var/cache/identity-broker:rw,mode=1777 \
    -v "$trust:/etc/identity-broker/trust:ro" "${env_vars[@]/#/--env=}" \
    "$image" >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
else
  standin_ctr="$(buildah from --pull=never "$image")"
  rootfs="$(buildah mount "$standin_ctr")"
  mkdir -p "$rootfs/etc/identity-broker/trust"
  mapfile -t image_env < <(buildah inspect --type image --format '{{range .OCIv1.Config.Env}}{{println .}}{{end}}' "$image" | sed '/^$/d')
  user="$(buildah inspect --type image --format '{{.OCIv1.Config.User}}' "$image")"
  workdir="$(buildah inspect --type image --format '{{.OCIv1.Config.WorkingDir}}' "$image")"
  mapfile -t command < <(buildah inspect --type image --format '{{range .OCIv1.Config.Entrypoint}}{{println .}}{{end}}{{range .OCIv1.Config.Cmd}}{{println .}}{{end}}' "$image" | sed '/^$/d')
  # A private mount namespace (nothing is seen outside it) and a PID namespace whose PID 1 is the image's tini.
  unshare --mount --pid --fork --propagation private /bin/sh -eu -c '
    root="$1" trust="$2" user="$3" workdir="$4"; shift 4
    mount --bind "$root" "$root"
    mount -t proc proc "$root/proc"
    mount --rbind /dev "$root/dev"
    for dir in tmp var/lib/identity-broker var/cache/identity-broker; do mount -t tmpfs -o mode=1777 tmpfs "$root/$dir"; done
    mount --bind "$trust" "$root/etc/identity-broker/trust"
    mount -o remount,bind,ro "$root/etc/identity-broker/trust"
    mount -o remount,bind,ro "$root"
    exec chroot --userspec="$user" "$root" /usr/bin/env -C "$workdir" "$@"
  ' standin "$rootfs" "$trust" "$user" "$workdir" env -i "${image_env[@]}" "${env_vars[@]}" "${command[@]}" >"$tmp/standin.log" 2>&1 &
  standin_pid=$!
fi
running() { if [[ "$mode" == podman ]]; then [[ "$(podman inspect --format '{{.State.Running}}' "$name")" == true ]]; else kill -0 "$standin_pid" 2>/dev/null; fi; }
logs() { if [[ "$mode" == podman ]]; then podman logs "$name" 2>&1; else cat "$tmp/standin.log"; fi; }

# 3. /health/ready 200.
ready=""
for _ in $(seq 1 240); do
  running || { logs >&2; fail "the service stopped"; }
  code="$(node -e "fetch('http://127.0.0.1:$port/health/ready').then((r) => console.log(r.status), () => console.log(0))")"
  if [[ "$code" == 200 ]]; then ready=yes; break; fi
  sleep 0.5
done
if [[ -z "$ready" ]]; then
  logs >&2
  node -e "fetch('http://127.0.0.1:$port/health/ready').then((r) => r.text()).then(console.error, console.error)"
  fail "/health/ready did not answer 200 within 120 s"
fi
log "/health/ready 200 after $((SECONDS - started)) s: $(node -e "fetch('http://127.0.0.1:$port/health/ready').then((r) => r.text()).then(console.log)")"

# 4. The HEALTHCHECK, and who runs.
if [[ "$mode" == podman ]]; then
  podman healthcheck run "$name" >/dev/null || fail "the image's HEALTHCHECK failed"
  users="$(podman top "$name" user | tail -n +2 | sort -u | tr '\n' ' ')"
else
  tini="$(tr -d ' ' <"/proc/$standin_pid/task/$standin_pid/children")"
  mapfile -t check < <(buildah inspect --type image --format '{{range .Docker.Config.Healthcheck.Test}}{{println .}}{{end}}' "$image" | sed '/^$/d')
  [[ "${check[0]:-}" == CMD ]] || fail "the image has no HEALTHCHECK in exec form (${check[*]:-none})"
  nsenter --target "$tini" --mount --pid --root --wd --setuid 10001 --setgid 10001 \
    env -i "${image_env[@]}" "PORT=$port" "${check[@]:1}" || fail "the image's HEALTHCHECK failed"
  users="$(ps -o user= -p "$tini,$(cat "/proc/$tini/task/$tini/children" | tr ' ' ',' | sed 's/,$//')" | sort -u | tr '\n' ' ')"
fi
log "HEALTHCHECK (node fetch of /health/live) passes"
[[ "$users" == "10001 " || "$users" == "broker " ]] || fail "processes run as '$users', not the image's user 10001"
log "processes run as: $users"

# 5. SIGTERM: a clean drain, exit 0, within the grace time.
stopping=$SECONDS
if [[ "$mode" == podman ]]; then
  podman stop -t $((grace + 10)) "$name" >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
  status="$(podman inspect --format '{{.State.ExitCode}}' "$name")"
else
  kill -TERM "$tini"
  for _ in $(seq 1 $(((grace + 10) * 10))); do kill -0 "$standin_pid" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$standin_pid" 2>/dev/null || true
  status=0; wait "$standin_pid" || status=$?
  standin_pid=""
fi
took=$((SECONDS - stopping))
line="$(logs | grep -m1 'shutdown complete' || true)"
if [[ "$status" != 0 || -z "$line" || $took -gt $grace ]]; then
  logs | tail -n 20 >&2
  fail "SIGTERM: exit $status after $took s (want 0 within $grace s)"
fi
log "SIGTERM: exit 0 after $took s: $line"
log "passed in $((SECONDS - started)) s ($mode)"
