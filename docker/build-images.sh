#!/usr/bin/env bash
# Builds the cluster's three images from docker/target (run `mvn -Pdocker -pl docker -am package
# -DskipTests` first). BASE picks the JRE 17 base: a public image by default, or
#   BASE=localhost/percolate-base:bookworm (docker/base/build-base.sh) with no registry.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
BASE="${BASE:-eclipse-temurin:17-jre}"
PREFIX="${PERCOLATE_IMAGE_PREFIX:-localhost/}"
[ -d target/lib ] || { echo "build-images: no target/lib; run mvn -Pdocker -pl docker -am package -DskipTests" >&2; exit 1; }
sed -n 's:.*<percolate.jvm.opens>\(.*\)</percolate.jvm.opens>.*:\1:p' ../pom.xml >target/jvm-opens
pull=()
case "$BASE" in localhost/*) docker build --help 2>/dev/null | grep -q -- '--pull' && pull=(--pull=false) ;; esac
for image in hadoop postgres nfs; do
  docker build -q "${pull[@]}" --build-arg BASE="$BASE" -f images/Dockerfile.$image -t "${PREFIX}percolate-$image:latest" . >/dev/null
  echo "built ${PREFIX}percolate-$image:latest"
done
