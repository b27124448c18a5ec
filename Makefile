# hammer-box developer targets. `make test` is what CI runs (after `make engine`).
SHELL := /bin/bash
NODE ?= node
CLI := $(NODE) dist/cli/main.js

.PHONY: all deps build engine images test test-unit test-integration bench demo clean typecheck security

all: build

node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

deps: node_modules/.package-lock.json

build: deps
	npx tsc -p tsconfig.json
	@chmod +x dist/cli/main.js

typecheck: deps
	npx tsc -p tsconfig.test.json

# Make a Docker engine reachable (idempotent). See scripts/engine.sh.
engine:
	@bash scripts/engine.sh

# The base image and every toolchain image (content-addressed: unchanged ones are not rebuilt).
images: build engine
	$(CLI) images bootstrap
	$(CLI) images build

test: build typecheck engine images
	npx vitest run

test-unit: deps
	npx vitest run --project unit

test-integration: build images
	npx vitest run --project integration

# The adversarial suite, every attack (make test runs only its cheap files), then a table of
# attack, expected, observed and verdict built from the rows the tests recorded.
SECURITY_RESULTS ?= $(or $(TMPDIR),/tmp)/hammer-box-security-results.ndjson
security: build engine images
	@rm -f $(SECURITY_RESULTS)
	@HAMMER_SECURITY=full HAMMER_SECURITY_RESULTS=$(SECURITY_RESULTS) npx vitest run --project security; status=$$?; \
	$(NODE) scripts/security-table.mjs $(SECURITY_RESULTS) || { [ $$status -ne 0 ] || status=1; }; exit $$status

# Benchmarks print figures and ratios; they never pass or fail on a timing.
bench: build images
	npx tsc -p tsconfig.bench.json
	$(NODE) .bench/bench/main.js $(BENCH)

# The run builds only the images it needs (base and python).
demo: build engine
	@bash examples/demo.sh

clean:
	rm -rf dist .bench
