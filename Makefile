# touchmove — the two commands of the README, and the longer sweeps.
.PHONY: demo test eval bench setup

setup:
	@scripts/setup.sh

# Renders a short game in which White castles rook first (4.4.2) as an overhead camera sees it
# (out/demo-scene/video.mp4, contact.jpg, truth.json), then judges its tracker events with the
# rules core and prints the decisions and the PGN. Until `replay` exists, the events come from
# the scene's ground truth rather than from the video.
demo: setup
	cargo build --release --quiet
	@mkdir -p out
	@echo "== rendering a scene with a breach (touchmove sim --breach rook-first --seed 7)"
	@target/release/touchmove sim --breach rook-first --seed 7 --out out/demo-scene
	@echo "== its events judged (touchmove rules --events out/demo-scene/events.jsonl)"
	@target/release/touchmove rules --events out/demo-scene/events.jsonl --pgn out/demo.pgn --white Alice --black Bob | grep -v '"kind":"move"'
	@echo "== out/demo.pgn"
	@cat out/demo.pgn
	@echo "== look at out/demo-scene/contact.jpg and out/demo-scene/video.mp4"

# Every test: unit tests (one module per FIDE clause), the 1,110 real games, the property
# tests, the command line, and one pass of each benchmark in test mode.
test: setup
	cargo test --all-targets

# Longer sweeps with figures: many more random games and injected breaches, the tracker on
# rendered real games, replay on every real clip, the hands on rendered scenes.
eval: setup
	PROPTEST_CASES=3000 cargo test --release --test properties -- --nocapture
	cargo build --release --quiet
	cargo run --release --quiet --example eval_rules
	cargo run --release --quiet --example eval_video
	cargo test --release --test hands -- --nocapture
	@echo "== rendered real games through vision, frame by frame against their truth"
	@for g in "5 1" "10 2" "15 3" "20 4" "25 5" "30 6" "35 7" "40 8"; do cargo run --release --quiet --example diag_vision -- $$g 20 | grep -v "^ *\(ideal\|vision squares\|vision hands\)"; done

bench: setup
	cargo bench --bench rules --bench render
