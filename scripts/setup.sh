#!/usr/bin/env bash
# Installs what building and running touchmove needs on a fresh Debian machine, and does
# nothing the second time. The rules core needs only the Rust toolchain (rustc 1.95, edition
# 2024); the vision stages will add Debian's OpenCV and the ONNX Runtime library here.
set -euo pipefail

if ! command -v cargo >/dev/null 2>&1; then
    echo "setup: cargo not found: install the Rust toolchain (rustc >= 1.95) first" >&2
    exit 1
fi
need="1.95"
have=$(rustc --version | awk '{print $2}')
if [ "$(printf '%s\n%s\n' "$need" "$have" | sort -V | head -n1)" != "$need" ]; then
    echo "setup: rustc $have is older than $need" >&2
    exit 1
fi
echo "setup: rustc $have found; nothing else to install for the rules core"
