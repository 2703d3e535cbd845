#!/usr/bin/env bash
# Node 22 and 24 beside the full suite on Node 20 (.ci/run calls this after it): for each version, the
# unit test project (vitest --project unit) and the CLI smoke (.ci/cli-smoke.mjs) in a copy of the built
# checkout whose better-sqlite3 is compiled for that Node. The integration project stays on Node 20:
# a second full run takes ~20 min and CI has 30.
#
# CI reaches the npm registry only, so the node binary comes from the registry's node-linux-<arch>
# package, which ships include/node as well: node-gyp compiles better-sqlite3 against those headers
# (--nodedir), since its prebuilt bindings download from GitHub.
#
# Env: MESH_CI_NODE_VERSIONS (default below), MESH_CI_CACHE (node binaries and compiled bindings; default
# ~/.cache/mesh-ci, outside the clone, so the next CI run on this machine skips the download and compile).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
# Node 24 stays on 24.18.1: from 24.19.0 the node::ObjectWrap of Node's headers registers an environment
# cleanup hook (nodejs/node#65446, open), and better-sqlite3 12 compiled against those headers aborts at
# exit ("Assertion failed: (env) != nullptr" in Statement::~Statement); better-sqlite3 13, which does not
# use ObjectWrap, needs Node 22. Move on when either is fixed for Node 20 to 24.
versions=${MESH_CI_NODE_VERSIONS:-22.23.3 24.18.1}
cache=${MESH_CI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mesh-ci}
mkdir -p "$cache"
case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64) arch=arm64 ;;
  *) echo "other-node: no node-linux package for $(uname -m)" >&2; exit 1 ;;
esac
# npm's own node-gyp (npm runs it for install scripts); better-sqlite3 does not depend on it.
gyp=$(dirname "$(readlink -f "$(command -v npm)")")/../node_modules/node-gyp/bin/node-gyp.js
bs3=$(node -p 'require("./node_modules/better-sqlite3/package.json").version')

made=()
# || true: with no job left, kill has nothing to kill and fails, and errexit would turn the run's exit into 2.
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "${made[@]}"' EXIT
# scratch VAR NAME: a new folder in the cache, removed on exit (assigned, not echoed: no subshell).
scratch() { local dir; dir=$(mktemp -d "$cache/$2.XXXXXX") && made+=("$dir") && printf -v "$1" %s "$dir"; }
now() { date +%s; }
began=$(now)

# $cache/node-<v>: the package unpacked (bin/node, include/node); renamed into place once whole.
fetch_node() {
  local v=$1 tmp
  [ -x "$cache/node-$v/bin/node" ] && return 0
  scratch tmp fetch || return 1
  npm pack "node-linux-$arch@$v" --pack-destination "$tmp" --silent >/dev/null || return 1
  mkdir "$tmp/node" && tar -xzf "$tmp"/node-linux-*.tgz -C "$tmp/node" --strip-components=1 || return 1
  if [ ! -f "$tmp/node/include/node/node.h" ]; then
    echo "other-node: node-linux-$arch@$v has no include/node to build better-sqlite3 against" >&2
    return 1
  fi
  mv "$tmp/node" "$cache/node-$v"
}

# $cache/better-sqlite3-<bs3>-node-<v>-<arch>.node: better-sqlite3's binding compiled for that Node.
# CFLAGS=-O1 lands after better-sqlite3's own -O3 on gcc's command line: SQLite compiles in about a
# minute instead of about four, and these tests do not measure SQLite's speed.
build_binding() {
  local v=$1 out=$cache/better-sqlite3-$bs3-node-$1-$arch.node src
  [ -f "$out" ] && return 0
  scratch src "build-$v" || return 1
  cp -a node_modules/better-sqlite3/. "$src" && rm -rf "$src/build" || return 1
  if ! (cd "$src" && PATH="$cache/node-$v/bin:$PATH" CFLAGS=-O1 node "$gyp" rebuild --release --nodedir="$cache/node-$v" -j 2 >"$src/gyp.log" 2>&1); then
    tail -40 "$src/gyp.log" >&2
    echo "other-node: better-sqlite3 $bs3 did not compile for node $v" >&2
    return 1
  fi
  cp "$src/build/Release/better_sqlite3.node" "$out.tmp" && mv "$out.tmp" "$out"
}

# copy_tree V DIR: the built checkout (node_modules hard-linked when the cache is on the same disk) with
# V's binding in better-sqlite3's build/Release, where its loader looks; the checkout stays Node 20's.
copy_tree() {
  local v=$1 tree=$2 module=$2/node_modules/better-sqlite3
  tar -C "$repo" --exclude=./.git --exclude=./node_modules --exclude=./.ci/report.json -cf - . | tar -C "$tree" -xf - || return 1
  cp -al node_modules "$tree/" 2>/dev/null || cp -a node_modules "$tree/" || return 1
  # Unlink, never write through: hard links share their files with the checkout.
  rm -rf "$module/build" "$tree/node_modules/.vite" && mkdir -p "$module/build/Release" || return 1
  cp "$cache/better-sqlite3-$bs3-node-$v-$arch.node" "$module/build/Release/better_sqlite3.node"
}

# Both versions are fetched and compiled side by side (each compile is mostly one gcc on sqlite3.c, and
# CI has two cores); the tests then run one version at a time, each on both cores.
declare -A prepared
for v in $versions; do
  (made=(); trap 'rm -rf "${made[@]}"' EXIT; fetch_node "$v" && build_binding "$v") &
  prepared[$v]=$!
done
status=0
summary=()
for v in $versions; do
  start=$(now)
  tree=
  if ! { wait "${prepared[$v]}" && scratch tree "tree-$v" && copy_tree "$v" "$tree"; }; then
    status=1
    summary+=("node $v: could not be prepared")
    continue
  fi
  ready=$(now)
  echo "== node $v: unit tests and CLI smoke (ready after $((ready - began)) s)"
  result=ok
  # The node first on PATH is the one the tests' child processes (bin/run.js, node -e) run on too.
  (cd "$tree" && PATH="$cache/node-$v/bin:$PATH" node node_modules/vitest/vitest.mjs run --project unit) || result=failed
  units=$(now)
  (cd "$tree" && PATH="$cache/node-$v/bin:$PATH" node .ci/cli-smoke.mjs) || result=failed
  finished=$(now)
  [ "$result" = ok ] || status=1
  summary+=("node $v: $result (ready after $((ready - began)) s, unit tests $((units - ready)) s, CLI smoke $((finished - units)) s)")
  rm -rf "$tree"
done
printf '%s\n' "${summary[@]}"
exit $status
