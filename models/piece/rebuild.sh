#!/usr/bin/env bash
# Rebuilds models/piece.onnx from scratch on this machine's CPUs (about 100 minutes on 2 cores):
#   1. renders the training crops (examples/piece_data.rs: 500 looks × 6 boards, seeds from
#      10000, none of them a test's), about 4 minutes;
#   2. trains models/piece/train.py with PyTorch in a virtual environment of its own
#      (.venv-train, PyPI packages pinned in requirements.txt; torch's Linux wheel brings CUDA
#      libraries along, about 4 GB, although training runs on the CPU);
#   3. writes models/piece.onnx and the reference crops and outputs (models/piece/reference.*)
#      that tests/pieces.rs checks ONNX Runtime against.
# The product does not need any of this: it runs the committed ONNX file through ort.
# Usage: models/piece/rebuild.sh [DATA_DIR]   (default /tmp/touchmove-piece-data)
set -euo pipefail
cd "$(dirname "$0")/../.."
data=${1:-/tmp/touchmove-piece-data}
venv=.venv-train
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
"$venv/bin/pip" install --quiet -r models/piece/requirements.txt
cargo build --release --example piece_data
target/release/examples/piece_data "$data" 500 6 10000
out=$(mktemp -d)
"$venv/bin/python" models/piece/train.py --data "$data" --out "$out" --epochs "${EPOCHS:-6}"
cp "$out/piece.onnx" models/piece.onnx
cp "$out/reference.u8" "$out/reference.json" models/piece/
echo "models/piece.onnx rebuilt; run: cargo test --release --test pieces -- --nocapture"
