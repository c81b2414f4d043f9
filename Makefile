# The README's commands. Each target installs what is missing (Debian
# packages), configures and builds out of tree in $(BUILD_DIR), then runs.
BUILD_DIR ?= build
JOBS ?= $(shell nproc)
# Fuzz targets: clang + libFuzzer + ASan/UBSan, in a build dir of their own.
FUZZ_DIR ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_SMOKE_SEED ?= 1
FUZZ_TARGETS = frame_decoder_fuzzer daemon_dispatch_fuzzer topology_spec_fuzzer config_loader_fuzzer
# The whole suite under ASan + UBSan, in a build dir of its own. clang, as for
# the fuzz targets: it builds this tree in about two thirds of gcc's time.
SANITIZE_DIR ?= build-asan
SANITIZE_CTEST_ARGS ?=
SANITIZER_LOGS = $(abspath $(SANITIZE_DIR))/sanitizer-logs

.PHONY: all deps configure build test demo bench clean fuzz-build fuzz test-sanitize

all: build

deps:
	bash deploy/install-deps.sh

configure: deps
	cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Release

build: configure
	cmake --build $(BUILD_DIR) -j $(JOBS)

# Unit and integration tests (integration tests start their own trestled
# processes on free loopback ports and stop them).
# Then each fuzz target replays its committed corpus (regression cases) and
# fuzzes a fixed number of inputs from seed FUZZ_SMOKE_SEED (a few seconds;
# the same build finds the same inputs every time).
test: build fuzz-build
	cd $(BUILD_DIR) && ctest --output-on-failure -j 2 --timeout 300
	cd $(FUZZ_DIR) && ctest --output-on-failure -j 2 --timeout 300 -L fuzz

# Only the fuzz targets and the libraries they use; RelWithDebInfo without
# NDEBUG, so asserts hold and stacks have lines.
fuzz-build: deps
	CC=clang CXX=clang++ cmake -S . -B $(FUZZ_DIR) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
	  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
	  -DTRESTLE_FUZZ=ON -DTRESTLE_BUILD_TESTS=OFF -DTRESTLE_BUILD_BENCH=OFF \
	  -DTRESTLE_FUZZ_SMOKE_SEED=$(FUZZ_SMOKE_SEED)
	cmake --build $(FUZZ_DIR) -j $(JOBS) --target fuzz_targets

# Each fuzz target for FUZZ_SECONDS (make fuzz FUZZ_SECONDS=300). New inputs
# collect in $(FUZZ_DIR)/tests/fuzz/corpus/, crashes in .../artifacts/.
fuzz: fuzz-build
	@set -e; out=$(FUZZ_DIR)/tests/fuzz; for t in $(FUZZ_TARGETS); do \
	  echo "== $$t: $(FUZZ_SECONDS) s"; mkdir -p $$out/corpus/$$t $$out/artifacts; \
	  $$out/$$t -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 \
	    -print_final_stats=1 -artifact_prefix=$$out/artifacts/$$t- \
	    $$out/corpus/$$t tests/fuzz/corpus/$$t; \
	done

# The suite built with ASan + UBSan and run; the integration tests start the
# sanitized trestled of the same build dir. Every report (test binaries and
# the daemons they start alike) goes to $(SANITIZER_LOGS); any report fails
# the target and is printed. SANITIZE_CTEST_ARGS selects a subset (ctest -R/-L).
test-sanitize: deps
	cmake -S . -B $(SANITIZE_DIR) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
	  -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
	  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
	  -DTRESTLE_SANITIZE=ON
	cmake --build $(SANITIZE_DIR) -j $(JOBS)
	rm -rf $(SANITIZER_LOGS) && mkdir -p $(SANITIZER_LOGS)
	cd $(SANITIZE_DIR) && \
	  ASAN_OPTIONS=log_path=$(SANITIZER_LOGS)/asan:detect_leaks=1:check_initialization_order=1:strict_init_order=1 \
	  UBSAN_OPTIONS=log_path=$(SANITIZER_LOGS)/ubsan:print_stacktrace=1:halt_on_error=1 \
	  LSAN_OPTIONS=suppressions=$(abspath tests/fuzz/lsan.supp):print_suppressions=0 \
	  ctest --output-on-failure -j 2 --timeout 600 $(SANITIZE_CTEST_ARGS); status=$$?; \
	  if [ -n "$$(ls $(SANITIZER_LOGS))" ]; then \
	    echo "== sanitizer reports ($(SANITIZER_LOGS)):"; cat $(SANITIZER_LOGS)/*; exit 1; fi; \
	  exit $$status

# trestled + ghost simulator + ping-pong, then a summary; stops what it started.
demo: build
	bash examples/demo.sh $(BUILD_DIR)

bench: build
	@ls $(BUILD_DIR)/bench/*/ 2>/dev/null | grep -q . || { echo "no benchmarks built"; exit 1; }
	@for b in $(BUILD_DIR)/bench/*/*_bench; do echo "== $$b"; $$b; done

clean:
	rm -rf $(BUILD_DIR)
