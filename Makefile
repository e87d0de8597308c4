# touchmove — the two commands of the README, and the longer sweeps.
.PHONY: demo test eval bench setup

setup:
	@scripts/setup.sh

# Renders a short game in which White, on move after 1. e4 d5, touches Black's pawn d5 and then
# plays Nf3 (4.3.2: he had to capture it), as an overhead camera sees it (out/demo-scene/
# video.mp4, contact.jpg, truth.json), then replays the video through vision, tracker and rules
# and prints the decisions and the PGN it recorded.
demo: setup
	cargo build --release --quiet
	@mkdir -p out
	@echo "== rendering a scene with a breach (touchmove sim --breach touch-opponent --seed 2)"
	@target/release/touchmove sim --breach touch-opponent --seed 2 --out out/demo-scene
	@echo "== the video replayed (touchmove replay out/demo-scene/video.mp4 --out out/demo)"
	@target/release/touchmove replay out/demo-scene/video.mp4 --out out/demo --white Alice --black Bob
	@echo "== out/demo/decisions.jsonl (moves left out)"
	@grep -v '"kind":"move"' out/demo/decisions.jsonl || true
	@echo "== out/demo/game.pgn"
	@cat out/demo/game.pgn
	@echo "== look at out/demo-scene/contact.jpg and out/demo-scene/video.mp4"

# Every test: unit tests (one module per FIDE clause), the 1,110 real games, the property
# tests, the command line, and one pass of each benchmark in test mode. The property tests draw
# the same 96 cases each run here, so that a gate never fails by chance; `make eval` draws 3,000
# fresh ones, and any failing case proptest finds is kept in tests/*.proptest-regressions,
# which every run replays first.
test: setup
	PROPTEST_RNG_SEED=20261205 cargo test --all-targets

# Longer sweeps with figures: many more random games and injected breaches, the tracker on
# rendered real games, replay on every real clip, promotions to each piece on rendered scenes,
# the hands on rendered scenes, the piece reader on the real stills.
eval: setup
	PROPTEST_CASES=3000 cargo test --release --test properties -- --nocapture
	cargo build --release --quiet
	cargo run --release --quiet --example eval_rules
	cargo run --release --quiet --example eval_video
	cargo run --release --quiet --example eval_promotions
	cargo test --release --test hands -- --nocapture
	cargo test --release --test pieces -- --nocapture --test-threads 1
	@echo "== the renderer's staged scenes (the breaches an arbiter is called for) through vision, seeds 11-13: the scene's own events, ideal observations, then the pixels"
	@for k in touch-own touch-opponent rook-first two-hands clock-without-move illegal-then-clock pawn-on-last-rank adjust-not-on-move knocked moved-on en-passant under-promotion adjust-announced slide adjust-announced-not-on-move; do for s in 11 12 13; do DIAG_STAGED=$$k cargo run --release --quiet --example diag_vision -- 1 $$s | grep -E "^ +(events|ideal|vision):" | sed "s/^ */$$k seed $$s /"; done; done
	@echo "== rendered real games through vision, frame by frame against their truth"
	@for g in "5 1" "10 2" "15 3" "20 4" "25 5" "30 6" "35 7" "40 8" "45 9" "50 10" "55 11" "60 12" "65 13" "70 14" "75 15" "80 16" "85 17" "90 18" "95 19" "100 20"; do cargo run --release --quiet --example diag_vision -- $$g 20 | grep -v "^ *\(ideal\|vision squares\|vision hands\)"; done
	@echo "== a second set, held out until three of its games (105, 110, 130) were looked at and fixed"
	@for g in "105 21" "110 22" "115 23" "120 24" "125 25" "130 26" "135 27" "140 28" "145 29" "150 30"; do cargo run --release --quiet --example diag_vision -- $$g 20 | grep -v "^ *\(ideal\|vision squares\|vision hands\)"; done
	@echo "== a third set, held out until its two failures (165, 185) were looked at"
	@for g in "155 31" "160 32" "165 33" "170 34" "175 35" "180 36" "185 37" "190 38" "195 39" "200 40"; do cargo run --release --quiet --example diag_vision -- $$g 20 | grep -v "^ *\(ideal\|vision squares\|vision hands\)"; done
	@echo "== long games: 40 plies each, held out until their first failures (230, 255) were looked at"
	@for g in "205 41" "210 42" "215 43" "220 44" "225 45" "230 46" "235 47" "240 48" "245 49" "250 50" "255 51" "260 52"; do cargo run --release --quiet --example diag_vision -- $$g 40 | grep -v "^ *\(ideal\|vision squares\|vision hands\)"; done
	@echo "== more long games (265-320), held out until their first failures (275, 270, 300) were looked at"
	@for g in "265 53" "270 54" "275 55" "280 56" "285 57" "290 58" "295 59" "300 60" "305 61" "310 62" "315 63" "320 64"; do cargo run --release --quiet --example diag_vision -- $$g 40 | grep -v "^ *\(ideal\|vision squares\|vision hands\)"; done
	@echo "== a sixth set of long games (325-380), held out until its first failures (325, 350, 370, 375) were looked at"
	@for g in "325 65" "330 66" "335 67" "340 68" "345 69" "350 70" "355 71" "360 72" "365 73" "370 74" "375 75" "380 76"; do cargo run --release --quiet --example diag_vision -- $$g 40 | grep -v "^ *\(ideal\|vision squares\|vision hands\)"; done
	@echo "== a seventh set of long games (385-440), run once and not yet tuned on: castling is its weak spot"
	@for g in "385 77" "390 78" "395 79" "400 80" "405 81" "410 82" "415 83" "420 84" "425 85" "430 86" "435 87" "440 88"; do cargo run --release --quiet --example diag_vision -- $$g 40 | grep -v "^ *\(ideal\|vision squares\|vision hands\)"; done

# Criterion benches, then replay and live on the demo scene (rendered if missing): throughput
# against decode-only, and the delay from each move's release frame to /events with the CPU used.
bench: setup
	cargo bench --bench rules --bench render --bench pieces --bench vision
	cargo build --release --quiet
	@test -f out/demo-scene/video.mp4 || target/release/touchmove sim --breach touch-opponent --seed 2 --out out/demo-scene
	target/release/touchmove bench out/demo-scene/video.mp4
	target/release/touchmove bench out/demo-scene/video.mp4 --live
