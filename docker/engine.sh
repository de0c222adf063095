# Sourced by docker/test.sh: makes `docker` and `docker-compose` work on this machine.
# With a Docker engine nothing is done. Without one (a docker CLI but no daemon, as on the
# project's build machines) it sets up rootful podman as /work/shared/facts/containers.md found
# necessary: runc (crun fails on hybrid cgroups), no default ulimits (setting them is not
# permitted), and `podman system service` for a Docker-compatible socket.
# Sets DOCKER_HOST and ENGINE_STARTED_PID (the podman service this script started, if any).

ENGINE_STATE_DIR="${ENGINE_STATE_DIR:-/tmp/percolate-podman}"
ENGINE_STARTED_PID=""

engine_setup() {
  if [ -z "${DOCKER_HOST:-}" ] && docker info >/dev/null 2>&1; then
    return 0
  fi
  local missing=()
  for tool in podman runc docker-compose debootstrap; do
    command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    [ "$(id -u)" = 0 ] || { echo "engine: need root to install podman (rootful)" >&2; return 1; }
    echo "engine: installing podman runc docker-compose debootstrap ..." >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq podman runc docker-compose debootstrap >/dev/null
  fi
  mkdir -p "$ENGINE_STATE_DIR"
  cat >"$ENGINE_STATE_DIR/containers.conf" <<'CONF'
[containers]
default_ulimits = []
[engine]
runtime = "runc"
CONF
  export CONTAINERS_CONF="$ENGINE_STATE_DIR/containers.conf"
  export DOCKER_HOST="unix://$ENGINE_STATE_DIR/podman.sock"
  if ! docker info >/dev/null 2>&1; then
    rm -f "$ENGINE_STATE_DIR/podman.sock"
    podman system service --time=0 "$DOCKER_HOST" >"$ENGINE_STATE_DIR/service.log" 2>&1 &
    ENGINE_STARTED_PID=$!
    for _ in $(seq 1 50); do docker info >/dev/null 2>&1 && break; sleep 0.2; done
    docker info >/dev/null 2>&1 || { echo "engine: podman service did not start" >&2; return 1; }
  fi
}

# Only the podman service this script started is stopped, by its PID.
engine_teardown() {
  if [ -n "$ENGINE_STARTED_PID" ]; then
    kill "$ENGINE_STARTED_PID" 2>/dev/null || true
    wait "$ENGINE_STARTED_PID" 2>/dev/null || true
    ENGINE_STARTED_PID=""
  fi
}

# podman reports health only when asked (no systemd timers here); harmless with Docker.
engine_is_podman() { [ -n "${CONTAINERS_CONF:-}" ]; }
