#!/usr/bin/env bash
# Builds localhost/percolate-base:bookworm, a JRE 17 base image, from Debian packages with
# debootstrap, for machines that cannot pull from an image registry. Needs root, debootstrap
# and podman (or docker). About a minute; the image is about 330 MB.
#   docker/base/build-base.sh [mirror]
set -euo pipefail
IMAGE="${PERCOLATE_BASE_IMAGE:-localhost/percolate-base:bookworm}"
MIRROR="${1:-http://deb.debian.org/debian}"
ENGINE="${ENGINE:-podman}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# netbase gives /etc/services, without which rpcbind and rpcinfo fail (NFS server image).
debootstrap --variant=minbase \
  --include=openjdk-17-jre-headless,procps,iproute2,netcat-openbsd,netbase,curl,ca-certificates \
  bookworm "$work/rootfs" "$MIRROR" >"$work/debootstrap.log" 2>&1 || { tail -20 "$work/debootstrap.log"; exit 1; }
rm -rf "$work/rootfs"/var/cache/apt/archives/*.deb "$work/rootfs"/var/lib/apt/lists/* \
       "$work/rootfs"/usr/share/{doc,man,locale,info}
tar --numeric-owner -C "$work/rootfs" -cf "$work/rootfs.tar" .
"$ENGINE" import --change 'CMD ["/bin/bash"]' "$work/rootfs.tar" "$IMAGE" >/dev/null
echo "built $IMAGE"
