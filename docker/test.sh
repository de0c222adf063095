#!/usr/bin/env bash
# docker/test.sh [--no-build] [--keep]: the container cluster test (issue 8).
# Builds the jars (mvn -Pdocker) and the images, brings the cluster of docker-compose.yml up,
# loads TPC-H onto the NFS export, runs a query through HiveServer2 with the Percolate hook and
# checks TlsScheduler grouped its applications, runs it again and checks it read from the XDFS
# cache on the cache blocks' nodes, kills a worker (DataNode + NodeManager) in the middle of a third
# run and checks its answer,
# then tears everything down (also on failure or Ctrl-C) and prints timings.
# On a machine with no Docker engine it sets up rootful podman first (docker/engine.sh).
#   --no-build  use docker/target as it is (the Maven profile -Pdocker-test runs it so)
#   --keep      leave the cluster running at the end (tear down: docker-compose -p percolatetest down -v)
# Environment: SF (TPC-H scale factor, default 0.01), BASE (base image; default: a public JRE 17
# image if it can be pulled, else localhost/percolate-base:bookworm built with debootstrap).
set -euo pipefail
DOCKER_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(dirname "$DOCKER_DIR")"
cd "$DOCKER_DIR"
# shellcheck source=engine.sh
source "$DOCKER_DIR/engine.sh"

BUILD=1 KEEP=0
for arg in "$@"; do
  case "$arg" in
    --no-build) BUILD=0 ;;
    --keep) KEEP=1 ;;
    *) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
  esac
done

PROJECT=percolatetest
SF="${SF:-0.01}"
PUBLIC_BASE=eclipse-temurin:17-jre
LOCAL_BASE=localhost/percolate-base:bookworm
export ENTERPRISE_DIR="$DOCKER_DIR/target/enterprise"
STATE_DIR="$DOCKER_DIR/target/test-state"
IMAGE=localhost/percolate-hadoop:latest
# host ports: free ones, so that the test never collides with anything on this machine
export NAMENODE_HTTP_PORT= RM_HTTP_PORT= PERCOLATE_HTTP_PORT= HIVE_JDBC_PORT= HIVE_HTTP_PORT= NFS_PORT=
COMPOSE=(docker-compose -p "$PROJECT" -f "$DOCKER_DIR/docker-compose.yml")

T0=$(date +%s)
TIMINGS=()
STEP_START=$T0
step() {  # step "<what just finished>"
  local now; now=$(date +%s)
  TIMINGS+=("$(printf '%5ds  %s' $((now - STEP_START)) "$1")")
  echo "test.sh: $1 ($((now - STEP_START)) s)"
  STEP_START=$now
}
fail() { echo "test.sh: FAILED: $*" >&2; exit 1; }

teardown() {
  local rc=$?
  set +e
  [ -n "${QUERY_PID:-}" ] && kill "$QUERY_PID" 2>/dev/null
  if [ -n "${DOCKER_HOST:-}" ] || docker info >/dev/null 2>&1; then
    if [ "$KEEP" = 1 ] && [ "$rc" = 0 ]; then
      echo "test.sh: cluster left running (--keep); DOCKER_HOST=${DOCKER_HOST:-}"
      return
    fi
    if [ "$rc" != 0 ]; then
      mkdir -p "$DOCKER_DIR/target/test-logs"
      for c in $(docker ps -a --format '{{.Names}}' --filter "name=${PROJECT}_"); do
        docker logs "$c" >"$DOCKER_DIR/target/test-logs/$c.log" 2>&1
      done
      echo "test.sh: container logs in docker/target/test-logs" >&2
    fi
    docker rm -f $(docker ps -aq --filter "name=${PROJECT}_client") >/dev/null 2>&1
    "${COMPOSE[@]}" down -v --remove-orphans -t 5 >/dev/null 2>&1
    left="$(docker ps -a --format '{{.Names}}' --filter "name=${PROJECT}_")"
    [ -z "$left" ] || echo "test.sh: WARNING: containers left: $left" >&2
  fi
  rm -rf "$ENTERPRISE_DIR"
  engine_teardown
  echo "test.sh: timings"
  printf '  %s\n' "${TIMINGS[@]}"
  echo "test.sh: total $(( $(date +%s) - T0 )) s, $([ "$rc" = 0 ] && echo PASSED || echo FAILED)"
}
trap teardown EXIT
trap 'exit 130' INT TERM

# --- engine, jars, images ---
engine_setup
step "container engine ready ($(docker version --format '{{.Server.Os}}' 2>/dev/null || echo ?), DOCKER_HOST=${DOCKER_HOST:-default})"
# a cluster left over by an interrupted run
"${COMPOSE[@]}" down -v --remove-orphans -t 5 >/dev/null 2>&1 || true

if [ "$BUILD" = 1 ]; then
  rm -rf "$DOCKER_DIR/target/lib"
  (cd "$ROOT" && mvn -B -ntp -q -Pdocker -pl docker -am package -DskipTests)
  step "Maven build (-Pdocker): $(ls "$DOCKER_DIR/target/lib" | wc -l) jars in docker/target/lib"
fi
[ -d "$DOCKER_DIR/target/classes/io/percolate/docker" ] || fail "no docker/target/classes: build with -Pdocker"

if [ -z "${BASE:-}" ]; then
  if docker image inspect "$PUBLIC_BASE" >/dev/null 2>&1 || timeout 120 docker pull -q "$PUBLIC_BASE" >/dev/null 2>&1; then
    BASE=$PUBLIC_BASE
  else
    BASE=$LOCAL_BASE
  fi
fi
if [ "$BASE" = "$LOCAL_BASE" ] && ! docker image inspect "$LOCAL_BASE" >/dev/null 2>&1; then
  ENGINE=$(engine_is_podman && echo podman || echo docker) "$DOCKER_DIR/base/build-base.sh"
  step "base image $LOCAL_BASE built with debootstrap"
fi
BASE="$BASE" "$DOCKER_DIR/build-images.sh" >/dev/null 2>"$DOCKER_DIR/target/build-images.log" \
  || { cat "$DOCKER_DIR/target/build-images.log" >&2; fail "image build"; }
step "images built on $BASE"

# --- cluster ---
export XDFS_SECRET_DIR="$DOCKER_DIR/target/secrets"
"$DOCKER_DIR/secret.sh" "$XDFS_SECRET_DIR" >/dev/null
container() { echo "${PROJECT}_$1_1"; }
host_url() { echo "http://$(docker port "$(container "$1")" "$2" | head -1)"; }

# Docker runs health checks itself; podman has no timers here, so they are run on demand.
healthy() {
  if engine_is_podman; then
    podman healthcheck run "$(container "$1")" >/dev/null 2>&1
  else
    [ "$(docker inspect --format '{{.State.Health.Status}}' "$(container "$1")" 2>/dev/null)" = healthy ]
  fi
}
wait_until() {  # wait_until <seconds> <what> <command...>
  local limit=$1 what=$2; shift 2
  local end=$(( $(date +%s) + limit ))
  until "$@"; do
    [ "$(date +%s)" -lt "$end" ] || fail "timed out after ${limit}s waiting for $what"
    sleep 3
  done
}
wait_healthy() { for s in "$@"; do wait_until 300 "$s to be healthy" healthy "$s"; done; }
jmx_value() {  # jmx_value <url> <bean> <attribute>
  curl -sf "$1/jmx?qry=$2" | python3 -c "import json,sys; b=json.load(sys.stdin)['beans']; print(b[0]['$3'] if b else '')" 2>/dev/null
}
live_datanodes() { [ "$(jmx_value "$(host_url namenode 9870)" Hadoop:service=NameNode,name=FSNamesystemState NumLiveDataNodes)" = "$1" ]; }
active_nodemanagers() {
  [ "$(curl -sf "$(host_url resourcemanager 8088)/ws/v1/cluster/metrics" \
      | python3 -c 'import json,sys; print(json.load(sys.stdin)["clusterMetrics"]["activeNodes"])' 2>/dev/null)" = "$1" ]
}

mkdir -p "$ENTERPRISE_DIR" && rm -rf "${ENTERPRISE_DIR:?}"/* "$STATE_DIR" && mkdir -p "$STATE_DIR"
# In stages, each waiting for the one before: podman would wait forever on
# depends_on/service_healthy, and daemons that start before HDFS exit.
# The workers' NodeManagers wait for the ResourceManager of the second stage.
"${COMPOSE[@]}" up -d namenode worker1 worker2 postgres nfs >/dev/null 2>&1
wait_healthy namenode postgres nfs
wait_until 300 "2 live DataNodes" live_datanodes 2
step "HDFS (2 workers' DataNodes), PostgreSQL and NFS-Ganesha up"
"${COMPOSE[@]}" up -d --no-recreate resourcemanager metastore xdfs-manager >/dev/null 2>&1
wait_healthy resourcemanager metastore xdfs-manager
wait_until 300 "2 NodeManagers" active_nodemanagers 2
step "YARN (TlsScheduler, 2 workers' NodeManagers), Hive metastore and the XDFS manager up"
"${COMPOSE[@]}" up -d --no-recreate hiveserver2 >/dev/null 2>&1
wait_healthy hiveserver2
step "HiveServer2 up"

# The client runs detached and is polled through the exit status it writes to a file: podman's
# Docker-compatible API spins a core for as long as anyone waits on a container (an attached
# `docker run`, `docker wait`), which halved the cluster's CPU and doubled the queries' times.
client() {  # client <phase args...>: the test client on the cluster's network; fails when it fails
  local name; name="$(container client)"
  rm -f "$STATE_DIR/exit"
  docker rm -f "$name" >/dev/null 2>&1 || true
  docker run -d --name "$name" --network "${PROJECT}_default" -m 1g -e HEAP=512m \
    -v "$DOCKER_DIR/conf:/opt/percolate/conf:ro" -v "$XDFS_SECRET_DIR:/opt/percolate/secrets:ro" \
    -v "$DOCKER_DIR/target/classes:/opt/percolate/client:ro" \
    -v "$ENTERPRISE_DIR:/enterprise" -v "$STATE_DIR:/state" --entrypoint bash "$IMAGE" \
    -c 'percolate-daemon client "$@"; echo $? >/state/exit' client "$@" >/dev/null
  until [ -f "$STATE_DIR/exit" ] || [ "$(docker inspect --format '{{.State.Running}}' "$name" 2>/dev/null)" != true ]; do
    sleep 2
  done
  docker logs "$name" 2>&1
  docker rm -f "$name" >/dev/null 2>&1 || true
  [ "$(cat "$STATE_DIR/exit" 2>/dev/null)" = 0 ] || fail "client $1 (exit $(cat "$STATE_DIR/exit" 2>/dev/null || echo ?))"
}

# --- the test ---
client load "$SF" /enterprise/tpch
step "TPC-H SF $SF written to the NFS export"
client ddl
step "external tables on xdfs:// created through HiveServer2"
client query first "$SF"
step "query 1 through JDBC with the hook: right rows, TlsScheduler grouped its applications"
client cached second first "$SF"
step "query 2: right rows, read from the XDFS cache, maps on the cache blocks' nodes"

# Query 3 loses a worker (the one not running its first job's ApplicationMaster), its NodeManager
# and its DataNode, once its first job has tasks running.
client query failover "$SF" >"$STATE_DIR/failover.out" 2>&1 &
QUERY_PID=$!
running_tasks() {
  curl -sf "$(host_url resourcemanager 8088)/ws/v1/cluster/apps?states=RUNNING" | python3 -c '
import json, sys
apps = (json.load(sys.stdin).get("apps") or {}).get("app") or []
busy = [a for a in apps if a.get("runningContainers", 0) >= 2]
print(busy[0]["amHostHttpAddress"].split(":")[0] if busy else "")' 2>/dev/null
}
am_host=""
find_busy_app() { am_host="$(running_tasks)"; [ -n "$am_host" ]; }
wait_until 300 "query 3's first tasks" find_busy_app
victim=worker1
[ "$am_host" = worker1 ] && victim=worker2
docker kill "$(container "$victim")" >/dev/null
step "query 3 running: killed $victim, its NodeManager and DataNode (ApplicationMaster on $am_host)"
wait "$QUERY_PID" || true
QUERY_PID=""
cat "$STATE_DIR/failover.out"
grep -q 'failover: rows match' "$STATE_DIR/failover.out" || fail "query 3 after the kills"
step "query 3 finished on the surviving nodes with the right rows"
