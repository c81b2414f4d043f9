# The README's commands. Each target installs what is missing (Debian
# packages), configures and builds out of tree in $(BUILD_DIR), then runs.
BUILD_DIR ?= build
JOBS ?= $(shell nproc)

.PHONY: all deps configure build test demo bench clean

all: build

deps:
	bash deploy/install-deps.sh

configure: deps
	cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Release

build: configure
	cmake --build $(BUILD_DIR) -j $(JOBS)

# Unit and integration tests (integration tests start their own trestled
# processes on free loopback ports and stop them).
test: build
	cd $(BUILD_DIR) && ctest --output-on-failure -j 2 --timeout 300

# trestled + ghost simulator + ping-pong, then a summary; stops what it started.
demo: build
	bash examples/demo.sh $(BUILD_DIR)

bench: build
	@ls $(BUILD_DIR)/bench/*/ 2>/dev/null | grep -q . || { echo "no benchmarks built"; exit 1; }
	@for b in $(BUILD_DIR)/bench/*/*_bench; do echo "== $$b"; $$b; done

clean:
	rm -rf $(BUILD_DIR)
