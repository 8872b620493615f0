#!/usr/bin/env bash
# Installs what is missing, builds memsched and runs every test (lit and
# GoogleTest) through ctest.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
install_missing
configure_and_build
cd "$BUILD_DIR"
ctest --output-on-failure -j "$(nproc)" "$@"
