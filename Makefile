# touchmove — the two commands of the README, and the longer sweeps.
.PHONY: demo test eval bench setup

setup:
	@scripts/setup.sh

# The rules core on the shipped example: a short game with a touch-move breach and a clock
# pressed without a move. Prints the decisions (JSONL) and the PGN.
demo: setup
	cargo build --release --quiet
	@mkdir -p out
	@echo "== decisions (touchmove rules --events examples/scholars-mate-with-breaches.jsonl)"
	@target/release/touchmove rules --events examples/scholars-mate-with-breaches.jsonl --pgn out/demo.pgn --white Alice --black Bob
	@echo "== out/demo.pgn"
	@cat out/demo.pgn

# Every test: unit tests (one module per FIDE clause), the 1,110 real games, the property
# tests, the command line, and one pass of each benchmark in test mode.
test: setup
	cargo test --all-targets

# Longer sweeps with figures: many more random games and injected breaches.
eval: setup
	PROPTEST_CASES=3000 cargo test --release --test properties -- --nocapture
	cargo run --release --quiet --example eval_rules

bench: setup
	cargo bench --bench rules
