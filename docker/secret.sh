#!/usr/bin/env bash
# docker/secret.sh [DIR]: makes the XDFS manager's shared secret, DIR/xdfs-manager.secret (default
# docker/target/secrets), unless it exists: 32 random bytes, base64, readable by its owner alone.
# docker-compose.yml mounts DIR at /opt/percolate/secrets in every Java container (XDFS_SECRET_DIR);
# the manager refuses requests not signed with it, and every XDFS client signs with it.
set -euo pipefail
dir="${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/target/secrets}"
mkdir -p "$dir"
file="$dir/xdfs-manager.secret"
if [ ! -s "$file" ]; then
  (umask 077 && head -c 32 /dev/urandom | base64 >"$file")
  echo "secret.sh: made $file"
fi
