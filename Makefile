# hammer-box developer targets. CI runs `make test`, then `make security` (after `make engine`): see .ci/run.
SHELL := /bin/bash
NODE ?= node
CLI := $(NODE) dist/cli/main.js

.PHONY: all deps build engine gvisor podman chromium tmux images test test-unit test-integration test-browser test-terminal test-kubernetes test-node bench demo pack clean typecheck security lint format package-check

all: build

node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

deps: node_modules/.package-lock.json

# dist/ is compiled again only when a source, the compiler's config or the dependencies changed
# (scripts/prepare.mjs, npm's build, leaves the same stamp).
BUILD_INPUTS := $(shell find src -name '*.ts') tsconfig.json package.json node_modules/.package-lock.json
dist/.built: $(BUILD_INPUTS)
	npx tsc -p tsconfig.json
	@chmod +x dist/cli/main.js
	@touch $@

build: deps dist/.built

typecheck: deps
	npx tsc -p tsconfig.test.json

# Stray files (lint/stray-files.mjs), formatting (Prettier), type-aware lint (ESLint with typescript-eslint,
# and the layers of src/: lint/eslint-plugin.js) and shellcheck; part of make test.
lint: deps
	@node lint/stray-files.mjs
	npx prettier --check --log-level warn .
	npx eslint --max-warnings 0 .
	@bash scripts/shellcheck.sh

# Rewrite the tree in the project's format.
format: deps
	npx prettier --write --log-level warn .

# Make a Docker engine reachable (idempotent). See scripts/engine.sh.
engine:
	@bash scripts/engine.sh

# Make the local engine offer gVisor as runtime "runsc" (idempotent; root and a local dockerd). See
# scripts/gvisor.sh.
gvisor: engine
	@bash scripts/gvisor.sh

# The gVisor tests in `make test` and `make security`: GVISOR=1 requires gVisor (set up by
# scripts/gvisor.sh, failing when it cannot be), auto sets it up when it can and otherwise leaves the
# gVisor tests out and says so, 0 leaves them out.
GVISOR ?= auto
GVISOR_SETUP = case "$(GVISOR)" in 0) echo "gvisor: the gVisor tests are left out (GVISOR=0)";; auto) bash scripts/gvisor.sh --optional;; *) bash scripts/gvisor.sh;; esac
GVISOR_ENV = HAMMER_GVISOR=$$(if [ "$(GVISOR)" != 0 ] && docker info --format '{{json .Runtimes}}' 2>/dev/null | grep -q '"runsc"'; then echo on; else echo off; fi)

# The Podman test in `make test` (hammer-box refuses Podman's Docker-compatible API, with a reason):
# PODMAN=1 requires Podman (installed by scripts/podman.sh, failing when it cannot be), auto installs
# it when it can and otherwise leaves the test out and says so, 0 leaves it out.
PODMAN ?= auto
PODMAN_SETUP = case "$(PODMAN)" in 0) echo "podman: the Podman test is left out (PODMAN=0)";; auto) bash scripts/podman.sh --optional;; *) bash scripts/podman.sh;; esac
PODMAN_ENV = HAMMER_PODMAN=$$(if [ "$(PODMAN)" = 0 ]; then echo off; elif [ "$(PODMAN)" != auto ]; then echo required; elif command -v podman >/dev/null 2>&1; then echo on; else echo off; fi)

# Install Podman for its test (idempotent; root and apt-get). See scripts/podman.sh.
podman:
	@bash scripts/podman.sh

# Chromium for the monitor's browser tests (idempotent; installs Debian's chromium as root, fails
# loudly otherwise). See scripts/chromium.sh.
chromium:
	@bash scripts/chromium.sh

# tmux for the terminal tests of chat and plan (idempotent; installs Debian's tmux as root, fails
# loudly otherwise). See scripts/tmux.sh.
tmux:
	@bash scripts/tmux.sh

# The base image and every toolchain image (content-addressed: unchanged ones are not rebuilt).
images: build engine
	$(CLI) images bootstrap
	$(CLI) images build

test: build typecheck lint engine images chromium tmux
	@$(GVISOR_SETUP)
	@$(PODMAN_SETUP)
	$(GVISOR_ENV) $(PODMAN_ENV) npx vitest run

test-unit: deps
	npx vitest run --project unit

test-integration: build images
	npx vitest run --project integration

# The monitor in headless Chromium (no engine needed).
test-browser: build chromium
	npx vitest run --project browser

# chat and plan in a real terminal (tmux) on the real engine.
test-terminal: build images tmux
	npx vitest run --project terminal

# The unit suite and the demo on another Node.js major (default 24), installed from the npm registry
# into a cache directory. See scripts/node-leg.sh.
NODE_MAJOR ?= 24
test-node: deps
	@NODE_MAJOR=$(NODE_MAJOR) bash scripts/node-leg.sh

# The sandbox contract suites against the Kubernetes cluster HAMMER_KUBECONFIG names (optional:
# HAMMER_KUBE_CONTEXT, HAMMER_KUBE_NAMESPACE; HAMMER_KUBE_REGISTRY, where the images are pushed
# first, else they must be loaded on the nodes: see docs/kubernetes.md).
KUBE_CONTRACT := test/integration/sandbox-exec.test.ts test/integration/sandbox-files.test.ts
test-kubernetes: build images
	@test -n "$$HAMMER_KUBECONFIG" || { echo "test-kubernetes: set HAMMER_KUBECONFIG to a kubeconfig that names the cluster"; exit 2; }
	@if [ -n "$$HAMMER_KUBE_REGISTRY" ]; then $(CLI) images push --registry "$$HAMMER_KUBE_REGISTRY"; fi
	HAMMER_BACKENDS='real cluster' npx vitest run $(KUBE_CONTRACT)

# The adversarial suite, every attack (make test runs only its cheap files), then a table of
# attack, expected, observed and verdict built from the rows the tests recorded. The attacks meet
# the engine's default runtime; RUNTIME=runsc runs every one of them under gVisor instead.
SECURITY_RESULTS ?= $(or $(TMPDIR),/tmp)/hammer-box-security-results.ndjson
RUNTIME ?=
security: build engine images
	@$(GVISOR_SETUP)
	@rm -f $(SECURITY_RESULTS)
	@$(GVISOR_ENV) HAMMER_TEST_RUNTIME=$(RUNTIME) HAMMER_SECURITY=full HAMMER_SECURITY_RESULTS=$(SECURITY_RESULTS) npx vitest run --project security; status=$$?; \
	$(NODE) scripts/security-table.mjs $(SECURITY_RESULTS) || { [ $$status -ne 0 ] || status=1; }; exit $$status

# Benchmarks print figures and ratios; they never pass or fail on a timing.
# RUNTIME=runsc runs the sandboxes (and the docker CLI references) under gVisor.
bench: build images chromium
	npx tsc -p tsconfig.bench.json
	HAMMER_BENCH_RUNTIME=$(RUNTIME) $(NODE) .bench/bench/main.js $(BENCH)

# The run builds only the images it needs (base and python), once; dist/ only when a source changed.
demo: build engine
	@bash examples/demo.sh

# A tarball that installs with no build step (npm runs no prepare when it installs a tarball):
# `npm install -g ./hammer-box-<version>.tgz`. dist/ is built here, once.
pack: build
	npm pack --ignore-scripts --pack-destination .

# Install hammer-box from fresh clones of HEAD into empty prefixes (npm pack + install, npm install -g .,
# a git URL) and run each installed command (see scripts/package-check.sh). Needs the npm registry.
package-check:
	@bash scripts/package-check.sh

clean:
	rm -rf dist .bench .demo hammer-box-*.tgz
