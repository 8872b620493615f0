#!/usr/bin/env bash
# Shared set-up for scripts/test.sh and scripts/demo.sh: installs the Debian
# packages that are missing (as root, with apt-get), then configures and
# builds memsched in build/ (or $MEMSCHED_BUILD_DIR). Idempotent: a second run
# installs nothing and rebuilds only what changed.
set -euo pipefail

MEMSCHED_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${MEMSCHED_BUILD_DIR:-$MEMSCHED_ROOT/build}"
LLVM_PREFIX=/usr/lib/llvm-22

PACKAGES=(
  cmake ninja-build g++ python3
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools
  libgtest-dev libboost-graph-dev
)

install_missing() {
  local missing=()
  for p in "${PACKAGES[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "memsched: installing ${missing[*]}"
  local sudo=()
  [ "$(id -u)" -ne 0 ] && sudo=(sudo)
  # A fresh machine starts with empty package lists.
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

configure_and_build() {
  if [ ! -f "$BUILD_DIR/build.ninja" ]; then
    cmake -G Ninja -S "$MEMSCHED_ROOT" -B "$BUILD_DIR" \
      -DCMAKE_BUILD_TYPE=Release \
      -DMLIR_DIR="$LLVM_PREFIX/lib/cmake/mlir" \
      -DLLVM_EXTERNAL_LIT="$LLVM_PREFIX/bin/lit"
  fi
  ninja -C "$BUILD_DIR" -j "$(nproc)" "$@"
}
