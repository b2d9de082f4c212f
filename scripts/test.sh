#!/usr/bin/env bash
# The README's test command (`npm test`): a supported Node.js (Node 24 is fetched from the npm registry when
# the one on PATH is older), the machine set up (scripts/system-setup.sh), then the build and every suite.
set -euo pipefail
cd "$(dirname "$0")/.."

node_dir="$(bash scripts/ensure-node.sh)"
export PATH="$node_dir/bin:$PATH"
export npm_config_nodedir="$node_dir"

bash scripts/system-setup.sh

npm run build
npm run lint
npm run test -w contracts
npm run test -w test-support
npm run test -w backend
npm run test -w frontend
