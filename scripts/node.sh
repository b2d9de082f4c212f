#!/usr/bin/env bash
# Runs `node "$@"` with a supported Node.js (see ensure-node.sh): `npm start` works on a machine whose own
# node is older, too.
set -euo pipefail
node_dir="$(bash "$(dirname "$0")/ensure-node.sh")"
exec "$node_dir/bin/node" "$@"
