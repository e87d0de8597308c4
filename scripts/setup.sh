#!/usr/bin/env bash
# Installs what building and running touchmove needs on a fresh Debian 12 machine, and does
# nothing the second time:
#   - the Rust toolchain check (rustc >= 1.95, edition 2024);
#   - Debian's OpenCV (4.6, with FFmpeg and GStreamer video I/O) and clang/libclang, which the
#     opencv crate's bindings and nokhwa's camera backend are built with; ffmpeg for test media;
#   - chromium, headless, for the test that loads the live viewer page in a real browser;
#   - the ONNX Runtime shared library for `ort`, unpacked from the PyPI wheel onnxruntime==1.31.1
#     (Debian has no package; prebuilt-binary downloads are not reachable) into
#     /opt/onnxruntime/lib and registered with ldconfig, so touchmove finds it with no variable set.
set -euo pipefail

say() { echo "setup: $*"; }

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

packages=(pkg-config clang libclang-dev libopencv-dev ffmpeg chromium)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    say "installing ${missing[*]} (Debian packages, about a minute)"
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

ORT_VERSION=1.31.1
ORT_DIR=/opt/onnxruntime/lib
if [ ! -e "$ORT_DIR/libonnxruntime.so.$ORT_VERSION" ]; then
    say "unpacking ONNX Runtime $ORT_VERSION from the onnxruntime wheel into $ORT_DIR"
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    python3 -m pip download --quiet --no-deps --only-binary=:all: --dest "$tmp" "onnxruntime==$ORT_VERSION"
    wheel=$(ls "$tmp"/onnxruntime-*.whl)
    python3 - "$wheel" "$tmp" "$ORT_VERSION" <<'PY'
import sys, zipfile
wheel, dest, version = sys.argv[1:]
with zipfile.ZipFile(wheel) as z:
    name = f"onnxruntime/capi/libonnxruntime.so.{version}"
    with open(f"{dest}/libonnxruntime.so.{version}", "wb") as out:
        out.write(z.read(name))
PY
    mkdir -p "$ORT_DIR"
    install -m 0644 "$tmp/libonnxruntime.so.$ORT_VERSION" "$ORT_DIR/"
    ln -sf "libonnxruntime.so.$ORT_VERSION" "$ORT_DIR/libonnxruntime.so.1"
    ln -sf "libonnxruntime.so.$ORT_VERSION" "$ORT_DIR/libonnxruntime.so"
    echo "$ORT_DIR" > /etc/ld.so.conf.d/onnxruntime.conf
    ldconfig
fi

say "ready: rustc $have, OpenCV $(pkg-config --modversion opencv4), ONNX Runtime $ORT_VERSION in $ORT_DIR"
