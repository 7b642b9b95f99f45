#!/usr/bin/env bash
# Starts the image (scripts/image/build-offline.sh built it) with podman against this machine's PostgreSQL and Redis,
# in production mode with a read-only root file system, as Kubernetes runs it (deploy/kubernetes; the trust anchors
# production requires are real CSCA certificates of the test fixtures, mounted as the ConfigMap would be), and checks:
# the HEALTHCHECK command and /health/live answer, /health/ready answers 200 (migrations ran on a fresh database,
# signing keys loaded, face models warm, Redis answers), the process runs as the image's non-root user, and SIGTERM
# ends it with exit code 0 and "shutdown complete" within SHUTDOWN_GRACE_SECONDS. docs/deployment.md.
#
#   scripts/image/check.sh                    # IMAGE (localhost/identity-broker:dev), DATABASE_URL, REDIS_URL
#
# DATABASE_URL names the server (default postgresql://postgres@127.0.0.1:5432/test); the check creates a database of
# its own there and drops it after. PODMAN_RUNTIME picks the OCI runtime; by default podman's own is tried, then runc.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
image="${IMAGE:-localhost/identity-broker:dev}"
server_url="${DATABASE_URL:-postgresql://postgres@127.0.0.1:5432/test}"
redis_url="${REDIS_URL:-redis://127.0.0.1:6379}"
grace=25
name="identity-broker-check-$$"
database="image_check_$$"
prefix="image-check-$$:"
log() { echo "image-check: $*"; }
admin_url="${server_url%/*}/postgres"
tmp="$(mktemp -d)"
cleanup() {
  podman rm -f "$name" >/dev/null 2>&1 || true
  psql -q "$admin_url" -c "DROP DATABASE IF EXISTS $database WITH (FORCE)" >/dev/null 2>&1 || true
  redis-cli -u "$redis_url" --scan --pattern "${prefix}*" 2>/dev/null | xargs -r redis-cli -u "$redis_url" del >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT

command -v podman >/dev/null || { echo "image-check: podman is missing (apt-get install podman)" >&2; exit 1; }
port="$(node -e "const s = require('net').createServer().listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); })")"

# Limits at or under this process's own: podman's defaults (nofile 1048576, nproc 4194304) are refused where the
# runtime may not raise them (no CAP_SYS_RESOURCE, as in some CI sandboxes).
limits=(--ulimit "nofile=$(ulimit -n):$(ulimit -n)" --ulimit nproc=4096:4096)
runtime=()
chosen=""
errors=""
for candidate in ${PODMAN_RUNTIME:-default runc}; do
  try=(); [[ "$candidate" != default ]] && try=(--runtime "$candidate")
  if [[ "$candidate" != default ]] && ! command -v "$candidate" >/dev/null; then errors+="  $candidate: not installed"$'\n'; continue; fi
  if version="$(podman "${try[@]}" run --rm --no-healthcheck --network host "${limits[@]}" --entrypoint node "$image" --version 2>"$tmp/err")"; then
    runtime=("${try[@]}"); chosen="$candidate"; break
  fi
  errors+="  $candidate: $(grep -v '^time=' "$tmp/err" | tr '\n' ' ')"$'\n'
done
if [[ -z "$chosen" ]]; then
  echo "image-check: podman cannot run a container here:"$'\n'"$errors" >&2
  exit 1
fi
log "podman runs containers here (runtime ${chosen}; the image's node ${version})"
if [[ -n "$errors" ]]; then log "before it:"$'\n'"$errors"; fi

psql -q "$admin_url" -c "CREATE DATABASE $database" >/dev/null
secret() { head -c 32 /dev/urandom | base64 | tr -d '\n'; }

started=$SECONDS
podman "${runtime[@]}" run -d --name "$name" --network host "${limits[@]}" \
  --read-only --tmpfs /var/lib/identity-broker:rw,mode=1777 --tmpfs /var/cache/identity-broker:rw,mode=1777 \
  -e APP_ENV=production -e PORT="$port" -e BASE_URL=https://broker.example.test -e TRUST_PROXY=true \
  -e DATABASE_URL="${server_url%/*}/$database" -e REDIS_URL="$redis_url" -e REDIS_KEY_PREFIX="$prefix" \
  -e RATE_LIMIT_REDIS_PREFIX="${prefix}ratelimit:" -e SHUTDOWN_GRACE_SECONDS="$grace" \
  -e DATA_ENCRYPTION_KEY="$(secret)" -e COOKIE_KEYS="$(secret)" -e SUBJECT_SECRET="$(secret)" -e PAIRWISE_SECRET="$(secret)" \
  -v "$root/test/fixtures/icao/real-documents/csca:/etc/identity-broker/trust:ro" -e TRUST_CSCA_PATHS=/etc/identity-broker/trust \
  "$image" >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }

ready=""
for _ in $(seq 1 240); do
  [[ "$(podman inspect --format '{{.State.Running}}' "$name")" == true ]] || { podman logs "$name" >&2; echo "image-check: the container stopped" >&2; exit 1; }
  code="$(node -e "fetch('http://127.0.0.1:$port/health/ready').then((r) => console.log(r.status), () => console.log(0))")"
  if [[ "$code" == 200 ]]; then ready=yes; break; fi
  sleep 0.5
done
if [[ -z "$ready" ]]; then
  podman logs "$name" >&2
  node -e "fetch('http://127.0.0.1:$port/health/ready').then((r) => r.text()).then(console.error, console.error)"
  echo "image-check: /health/ready did not answer 200 within 120 s" >&2; exit 1
fi
log "/health/ready 200 after $((SECONDS - started)) s: $(node -e "fetch('http://127.0.0.1:$port/health/ready').then((r) => r.text()).then(console.log)")"
podman healthcheck run "$name" >/dev/null || { echo "image-check: the image's HEALTHCHECK failed" >&2; exit 1; }
log "HEALTHCHECK (node fetch of /health/live) passes"
user="$(podman top "$name" user | tail -n +2 | sort -u | tr '\n' ' ')"
[[ "$user" == "10001 " || "$user" == "broker " ]] || { echo "image-check: processes run as '$user', not the image's user 10001" >&2; exit 1; }
log "processes run as: $user"

stopping=$SECONDS
podman stop -t $((grace + 10)) "$name" >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
took=$((SECONDS - stopping))
status="$(podman inspect --format '{{.State.ExitCode}}' "$name")"
line="$(podman logs "$name" 2>&1 | grep -m1 'shutdown complete' || true)"
if [[ "$status" != 0 || -z "$line" || $took -gt $grace ]]; then
  podman logs "$name" 2>&1 | tail -n 20 >&2
  echo "image-check: SIGTERM: exit $status after $took s (want 0 within $grace s)" >&2; exit 1
fi
log "SIGTERM: exit 0 after $took s: $line"
log "passed in $((SECONDS - started)) s"
