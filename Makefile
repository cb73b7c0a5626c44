# One binary, bin/studio, serves the prerendered React site (web/) and the
# backend functions. See README.md.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := build

WEB := web
NPM := npm --prefix $(WEB) --no-fund --no-audit --loglevel=error
CHROMIUM := /usr/bin/chromium
ADDR ?= :8080

.PHONY: build run test dev web test-record-tree test-clean-tree test-go test-web test-budgets test-e2e test-e2e-sqlite test-e2e-postgres test-idp test-auth test-cluster test-deploy deps-test bench bench-static bench-storage bench-functions bench-auth bench-console bench-cluster bench-startup bench-analytics audit clean

## build: the site and the binary (bin/studio)
build: web
	go build -trimpath -o bin/studio ./cmd/studio

## run: build everything and serve on http://localhost:8080
run: build
	./bin/studio serve --addr $(ADDR)

# npm ci only when the lock file changed since the last install.
$(WEB)/node_modules/.package-lock.json: $(WEB)/package-lock.json
	$(NPM) ci
	@touch $@

## web: the prerendered site in web/build/client, with .br/.gz variants
web: $(WEB)/node_modules/.package-lock.json
	$(NPM) run build

## test: everything CI checks (installs what the tests need when missing)
# The first prerequisite records the work tree; the last step checks that the
# tests left it as they found it. The suites run in two lanes at once
# (scripts/in-parallel, each line prefixed with its lane): the browser's,
# which keeps both cores busy, and the servers', whose sign-in suites mostly
# wait on real clocks (TOTP windows, expiries, back-off).
test: test-record-tree deps-test build
	scripts/in-parallel \
		"browser=$(MAKE) --no-print-directory test-web test-budgets test-e2e-sqlite test-e2e-postgres" \
		"servers=$(MAKE) --no-print-directory test-go test-idp test-auth test-cluster test-deploy"
	@scripts/check-clean-tree check

# No test may write into the work tree (scripts/check-clean-tree): a studio
# a test starts gets a temporary --data, or its store and secret key would
# land in the repository.
test-record-tree:
	@scripts/check-clean-tree record

test-clean-tree:
	@scripts/check-clean-tree check

deps-test:
	@scripts/ensure-nginx
	@scripts/ensure-versitygw >/dev/null
	@scripts/ensure-simplesamlphp
	@if [ ! -x $(CHROMIUM) ]; then \
		echo "installing Debian's chromium for the end-to-end tests"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	fi

# The Go tests run with a throwaway PostgreSQL (scripts/with-postgres installs
# Debian's postgresql when missing, starts it on a free loopback port, and
# stops it afterwards): the store suite, the outbox, the CLI and the
# durability test run against both SQLite and PostgreSQL. They also run with
# a throwaway S3-compatible server (scripts/with-s3: versitygw, built with go
# install when missing) for the S3 storage backend's tests. The durability
# test (cmd/studio) kills and restarts the binary under load. The rolling
# upgrade test (cmd/studio/upgrade_test.go) runs the previous release
# (deploy/previous-release, built once into bin/previous/) beside this one.
test-go:
	go vet ./...
	previous=$$(scripts/build-previous-release) && \
		STUDIO_PREVIOUS_BINARY=$$previous scripts/with-postgres scripts/with-s3 go test ./...

test-web: $(WEB)/node_modules/.package-lock.json
	$(NPM) run typecheck
	$(NPM) test

# First-load JS, CSS and HTML of every page against the budgets; prints the table.
test-budgets:
	node $(WEB)/scripts/size-budget.mjs

# The end-to-end tests on SQLite; the staff console's again on a throwaway
# PostgreSQL (its own servers take STUDIO_TEST_DATABASE_URL), on ports of its
# own (E2E_PORT). make test runs the second after the first in the browser's
# lane: beside the first and the servers' suites, the console's timed out.
test-e2e: test-e2e-sqlite test-e2e-postgres

test-e2e-sqlite: $(WEB)/node_modules/.package-lock.json
	$(NPM) run e2e

test-e2e-postgres: $(WEB)/node_modules/.package-lock.json
	E2E_PORT=4339 scripts/with-postgres $(NPM) run e2e -- e2e/admin.spec.ts e2e/oauth-console.spec.ts e2e/sso-console.spec.ts

# The identity providers that the federated sign-in tests start, checked on
# their own (web/idp-tests): an OpenID Connect provider (the certified
# oidc-provider package, web/auth-tests/idp/oidc-provider.mjs) and a SAML
# IdP (Debian's SimpleSAMLphp under PHP's built-in server, installed by
# deps-test; web/auth-tests/idp/saml-idp.mjs), each on loopback.
test-idp: $(WEB)/node_modules/.package-lock.json
	$(NPM) run test:idp

# The official @supabase/supabase-js client against bin/studio's /auth/v1,
# /rest/v1 and /realtime/v1 (make build first), with a real SMTP peer
# capturing the sign-in mails: on SQLite (files in --data), then on a
# throwaway PostgreSQL with the files in a throwaway S3 server (versitygw).
test-auth: $(WEB)/node_modules/.package-lock.json
	$(NPM) run test:auth
	scripts/with-postgres scripts/with-s3 sh -c 'STUDIO_STORAGE_URL="$$STUDIO_TEST_S3_URL" $(NPM) run test:auth'

# Two instances of bin/studio on one throwaway PostgreSQL behind nginx
# (deploy/nginx/studio.conf), checked through it with supabase-js: shared
# limits, one mail per message, sessions, live events, an instance killed,
# files on a shared S3 server (versitygw); and a 10 s PostgreSQL outage.
test-cluster: $(WEB)/node_modules/.package-lock.json
	scripts/with-postgres scripts/with-s3 sh -c 'STUDIO_STORAGE_URL="$$STUDIO_TEST_S3_URL" $(NPM) run test:cluster'

# The systemd unit in deploy/ (the container image cannot be built here: no engine).
test-deploy:
	scripts/verify-systemd-unit

## dev: Vite with hot reload on :5173; API calls go to the Go server on :8080
dev: build
	@trap 'kill 0' EXIT; ./bin/studio serve --addr 127.0.0.1:8080 & $(NPM) run dev

## bench: benchmarks, not tests
bench: bench-static bench-storage bench-functions bench-auth bench-console bench-cluster bench-startup bench-analytics

# What counting costs the pages (on against off), and the views one instance
# accepts a second without dropping any (bench/analytics.sh); then the
# analytics screen's periods over a year at 100,000 views a day, p50/p99 on
# SQLite and PostgreSQL (cmd/bench/analytics.go).
bench-analytics: build
	bash bench/analytics.sh
	PG_FSYNC=on scripts/with-postgres go run ./cmd/bench --workload analytics --binary bin/studio

# wrk against bin/studio and nginx serving the same files.
bench-static: build
	bash bench/static.sh

# Files of /storage/v1: public downloads of a 10 KiB and a 1 MiB object
# against nginx serving the same bytes (req/s, MB/s, ratio), and the upload
# rate on the directory backend and on an S3 server (versitygw).
bench-storage: build deps-test
	scripts/with-s3 bash bench/storage.sh

# Accepted contact messages per second (committed writes) and p50/p99 latency
# at a fixed rate, on SQLite and on a throwaway PostgreSQL with fsync on.
bench-functions: build
	PG_FSYNC=on scripts/with-postgres go run ./cmd/bench --binary bin/studio

# Staff sign-in: refresh-token grants and GET /auth/v1/user per second, 16
# clients each with its own session, p50/p99, on SQLite and on a throwaway
# PostgreSQL with fsync on; the auth rate limits are off for the run. Then
# the time of POST /otp and /recover for staff and for others (200 pairs).
bench-auth: build
	PG_FSYNC=on scripts/with-postgres go run ./cmd/bench --binary bin/studio --workload auth

# The staff console's queries on 100,000 contact messages (p50/p99 of the
# inbox page with and without its count, the open filter, a search) and the
# realtime fan-out to 200 joined consoles, on SQLite and PostgreSQL.
bench-console: build
	PG_FSYNC=on scripts/with-postgres go run ./cmd/bench --workload console --binary bin/studio

# Contact messages per second (p50/p99) through nginx with one and with two
# servers on one throwaway PostgreSQL (fsync on), and the time a live event
# takes to cross from one server to a console on the other.
bench-cluster: build deps-test
	PG_FSYNC=on scripts/with-postgres go run ./cmd/bench --workload cluster --binary bin/studio

# Time from the start of bin/studio to /healthz and to /readyz 200, with the
# default site URL, and with --site-url and a CAPTCHA the first time (pages
# compressed) and later (pages read from --data/site-cache), medians.
bench-startup: build
	bash bench/startup.sh

## audit: Lighthouse, mobile profile, every route, medians of 3 runs (a benchmark, not a test)
bench/audit/node_modules/.package-lock.json: bench/audit/package-lock.json
	npm --prefix bench/audit --no-fund --no-audit --loglevel=error ci
	@touch $@

audit: deps-test build bench/audit/node_modules/.package-lock.json
	node bench/audit/audit.mjs

clean:
	rm -rf bin $(WEB)/build $(WEB)/.astro
