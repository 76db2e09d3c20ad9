#!/usr/bin/env bash
# Run the official MCP conformance suite (@modelcontextprotocol/conformance,
# "server" mode) against an MCP server that serves streamable HTTP.
#
# Usage:
#   scripts/conformance.sh [server-command...]
#
# With no arguments the server under test is the project's example:
#   go run . -http {addr}     (in examples/conformance, a module of its own)
# which must serve streamable HTTP at http://{addr}/mcp.
#
# Placeholders in the server command (any argument, anywhere in it):
#   {addr}  127.0.0.1:PORT      {host}  127.0.0.1      {port}  PORT
# PORT is a free port picked by this script. A command given is run from the
# repository root; the default one from examples/conformance. Examples:
#   scripts/conformance.sh
#   scripts/conformance.sh /tmp/everything-server -http={addr} -stateless=false
#   CONFORMANCE_ARGS='--scenario tools-call-with-progress' scripts/conformance.sh
#
# What it does: makes sure a Node >= 22 is available (the system one if it is
# new enough, else npm's node-linux-<arch>@22 package installed into the cache
# directory), installs the suite pinned to CONFORMANCE_VERSION into the cache
# directory (reused across runs), starts the server in the background in its
# own process group, waits until it answers HTTP, runs the suite against that
# one process for each protocol generation the server serves (the 2025-11-25
# requirement set, then the 2026-07-28 one, each scored by the suite, then
# each extension scenario, strictly; or, with CONFORMANCE_ARGS, once with
# those arguments), prints the failed checks and
# a summary per run, stops the server, and exits non-zero if a run failed (or
# the server could not be started).
#
# Environment (all optional):
#   CONFORMANCE_VERSION   suite version (default: the pinned one below)
#   CONFORMANCE_ARGS      extra arguments for `conformance server`, split on
#                         whitespace, e.g. '--scenario ping' or
#                         '--requirements 2025-11-25' or '--suite all'
#   CONFORMANCE_REQUIREMENTS  the requirement sets run without CONFORMANCE_ARGS
#                         (default '2025-11-25 2026-07-28')
#   CONFORMANCE_EXTENSIONS  the extension scenarios run without CONFORMANCE_ARGS,
#                         each at 2026-07-28 and forced at 2025-11-25, every
#                         check that applies required to be SUCCESS (default:
#                         the three SEP-2640 skills scenarios; '' for none)
#   CONFORMANCE_EXTENSION_ERAS  the revisions each extension scenario runs at
#                         (default '2026-07-28 2025-11-25')
#   CONFORMANCE_URL       test an already running server at this URL instead of
#                         starting one (the server command is then ignored)
#   CONFORMANCE_HOST      host to bind/test (default 127.0.0.1; the suite's
#                         dns-rebinding-protection scenario needs a loopback URL)
#   CONFORMANCE_PORT      port to use (default: a free one)
#   CONFORMANCE_PATH      MCP endpoint path (default /mcp)
#   CONFORMANCE_CACHE     cache dir (default ${XDG_CACHE_HOME:-$HOME/.cache}/vurb-conformance)
#   CONFORMANCE_RESULTS   copy the per-scenario results (server-<scenario>-<time>/
#                         checks.json) into this dir (default: kept only in a
#                         temp dir that is removed on exit)
#   CONFORMANCE_STARTUP_TIMEOUT  seconds to wait for the server (default 180;
#                         `go run` compiles first)
#   CONFORMANCE_TIMEOUT   per-scenario timeout in ms passed to the suite
#                         (default: the suite's own, 30000)
set -euo pipefail

# The suite version this script is pinned to. 0.2.0-alpha.12 is the newest
# release; its active server suite is a superset of 0.1.16's (the npm "latest"
# tag) and adds wire-schema validation of every message the server sends.
readonly PINNED_VERSION="0.2.0-alpha.12"
readonly NODE_MAJOR=22
# The extension scenarios run besides the requirement sets (see below):
# the Skills extension's (SEP-2640), which examples/conformance serves.
readonly EXTENSION_SCENARIOS="sep-2640-skills-directory sep-2640-skills-enumeration sep-2640-skills-manifest"

VERSION="${CONFORMANCE_VERSION:-$PINNED_VERSION}"
HOST="${CONFORMANCE_HOST:-127.0.0.1}"
MCP_PATH="${CONFORMANCE_PATH:-/mcp}"
CACHE="${CONFORMANCE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/vurb-conformance}"
STARTUP_TIMEOUT="${CONFORMANCE_STARTUP_TIMEOUT:-180}"

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

log() { printf 'conformance.sh: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 2; }

if [[ "${1:-}" == "-h" || "${1:-}" == "--help" ]]; then
	sed -n '2,/^set -euo pipefail/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'
	exit 0
fi

WORK="$(mktemp -d "${TMPDIR:-/tmp}/vurb-conformance.XXXXXX")"
SERVER_PID=""
SERVER_LOG="$WORK/server.log"

cleanup() {
	local rc=$?
	if [[ -n "$SERVER_PID" ]]; then
		# The server runs in its own process group (setsid): end the whole
		# group so that `go run`'s child binary goes too.
		kill -TERM -- "-$SERVER_PID" 2>/dev/null || kill -TERM "$SERVER_PID" 2>/dev/null || true
		for _ in $(seq 1 50); do
			kill -0 "$SERVER_PID" 2>/dev/null || break
			sleep 0.1
		done
		kill -KILL -- "-$SERVER_PID" 2>/dev/null || kill -KILL "$SERVER_PID" 2>/dev/null || true
		wait "$SERVER_PID" 2>/dev/null || true
		SERVER_PID=""
	fi
	rm -rf "$WORK"
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---------------------------------------------------------------------------
# Node >= 22
# ---------------------------------------------------------------------------
node_major() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

find_node() {
	local sys
	if sys="$(command -v node 2>/dev/null)" && (($(node_major "$sys") >= NODE_MAJOR)); then
		echo "$sys"
		return
	fi
	local arch pkg
	case "$(uname -m)" in
	x86_64 | amd64) arch=x64 ;;
	aarch64 | arm64) arch=arm64 ;;
	*) die "no Node >= $NODE_MAJOR on PATH and no npm node package for $(uname -m)" ;;
	esac
	pkg="node-linux-$arch"
	local dir="$CACHE/node$NODE_MAJOR-$arch"
	local bin="$dir/node_modules/$pkg/bin/node"
	if [[ ! -x "$bin" ]] || (($(node_major "$bin") < NODE_MAJOR)); then
		command -v npm >/dev/null 2>&1 || die "need npm (to install $pkg@$NODE_MAJOR) or a Node >= $NODE_MAJOR on PATH"
		log "installing $pkg@$NODE_MAJOR into $dir"
		local tmp="$dir.tmp.$$"
		rm -rf "$tmp"
		mkdir -p "$tmp"
		npm install --prefix "$tmp" --no-save --no-audit --no-fund --loglevel=error "$pkg@$NODE_MAJOR" >&2
		rm -rf "$dir"
		mv "$tmp" "$dir"
	fi
	[[ -x "$bin" ]] || die "node binary not found at $bin"
	echo "$bin"
}

# ---------------------------------------------------------------------------
# The suite, pinned
# ---------------------------------------------------------------------------
find_suite() {
	local dir="$CACHE/conformance-$VERSION"
	local pkgdir="$dir/node_modules/@modelcontextprotocol/conformance"
	local have=""
	[[ -f "$pkgdir/package.json" ]] && have="$("$NODE" -p "require('$pkgdir/package.json').version" 2>/dev/null || true)"
	if [[ "$have" != "$VERSION" ]]; then
		command -v npm >/dev/null 2>&1 || die "need npm to install @modelcontextprotocol/conformance@$VERSION"
		log "installing @modelcontextprotocol/conformance@$VERSION into $dir"
		local tmp="$dir.tmp.$$"
		rm -rf "$tmp"
		mkdir -p "$tmp"
		npm install --prefix "$tmp" --no-save --no-audit --no-fund --loglevel=error \
			"@modelcontextprotocol/conformance@$VERSION" >&2
		rm -rf "$dir"
		mv "$tmp" "$dir"
	fi
	local bin
	bin="$("$NODE" -p "const p=require('$pkgdir/package.json'); typeof p.bin==='string'?p.bin:p.bin.conformance")"
	[[ -f "$pkgdir/$bin" ]] || die "suite entry point not found: $pkgdir/$bin"
	echo "$pkgdir/$bin"
}

free_port() {
	"$NODE" -e '
		const s = require("net").createServer();
		s.listen(0, process.argv[1], () => { console.log(s.address().port); s.close(); });
	' "$HOST"
}

# Any HTTP answer (even 4xx/405) means the server is up.
server_answers() {
	if command -v curl >/dev/null 2>&1; then
		curl -s -o /dev/null --max-time 2 "$1"
	else
		"$NODE" -e '
			fetch(process.argv[1], { signal: AbortSignal.timeout(2000) })
				.then(() => process.exit(0), () => process.exit(1));
		' "$1"
	fi
}

mkdir -p "$CACHE"
NODE="$(find_node)"
SUITE="$(find_suite)"
log "node $("$NODE" --version) ($NODE), @modelcontextprotocol/conformance@$VERSION"

# ---------------------------------------------------------------------------
# Start the server
# ---------------------------------------------------------------------------
if [[ -n "${CONFORMANCE_URL:-}" ]]; then
	URL="$CONFORMANCE_URL"
	log "testing the server already running at $URL"
else
	PORT="${CONFORMANCE_PORT:-$(free_port)}"
	ADDR="$HOST:$PORT"
	URL="http://$ADDR$MCP_PATH"
	SERVER_DIR="$ROOT"
	if (($# == 0)); then
		# examples/conformance is a module of its own (it requires
		# go-redis, for -redis, which vurb's go.mod never lists).
		SERVER_DIR="$ROOT/examples/conformance"
		set -- go run . -http '{addr}'
	fi
	cmd=()
	for arg in "$@"; do
		arg="${arg//\{addr\}/$ADDR}"
		arg="${arg//\{host\}/$HOST}"
		arg="${arg//\{port\}/$PORT}"
		cmd+=("$arg")
	done
	log "starting server: ${cmd[*]}"
	cd "$SERVER_DIR"
	if command -v setsid >/dev/null 2>&1; then
		setsid "${cmd[@]}" >"$SERVER_LOG" 2>&1 </dev/null &
	else
		"${cmd[@]}" >"$SERVER_LOG" 2>&1 </dev/null &
	fi
	SERVER_PID=$!

	deadline=$((SECONDS + STARTUP_TIMEOUT))
	until server_answers "$URL"; do
		if ! kill -0 "$SERVER_PID" 2>/dev/null; then
			wait "$SERVER_PID" 2>/dev/null && rc=0 || rc=$?
			SERVER_PID=""
			log "server exited (status $rc) before answering at $URL; its output:"
			sed 's/^/  | /' "$SERVER_LOG" >&2
			exit 1
		fi
		if ((SECONDS >= deadline)); then
			log "server did not answer at $URL within ${STARTUP_TIMEOUT}s; its output:"
			sed 's/^/  | /' "$SERVER_LOG" >&2
			exit 1
		fi
		sleep 0.3
	done
	log "server is up at $URL (pid $SERVER_PID)"
fi

# ---------------------------------------------------------------------------
# Run the suite (once per requirement set, against the same server)
# ---------------------------------------------------------------------------
# run_suite ARGS... runs the suite with ARGS added to CONFORMANCE_ARGS and
# prints the summary; it sets suite_rc and summary_rc.
run_suite() {
	local RESULTS
	RESULTS="$(mktemp -d "$WORK/results.XXXXXX")"
	local args=(server --url "$URL" -o "$RESULTS")
	[[ -n "${CONFORMANCE_TIMEOUT:-}" ]] && args+=(--timeout "$CONFORMANCE_TIMEOUT")
	# shellcheck disable=SC2206 # word splitting intended
	[[ -n "${CONFORMANCE_ARGS:-}" ]] && args+=(${CONFORMANCE_ARGS})
	args+=("$@")

	suite_rc=0
	# Run from the work dir: the suite may write ./results otherwise.
	(cd "$WORK" && "$NODE" "$SUITE" "${args[@]}") || suite_rc=$?
	if [[ -n "${CONFORMANCE_RESULTS:-}" ]]; then
		mkdir -p "$CONFORMANCE_RESULTS"
		cp -R "$RESULTS"/. "$CONFORMANCE_RESULTS"/
		log "per-scenario checks.json files copied to $CONFORMANCE_RESULTS"
	fi

	# With a baseline (--expected-failures) or a requirement set
	# (--requirements, which also runs unscored extension scenarios) the
	# suite's own exit status decides; the summary still lists every
	# failing check. With STRICT=1 (extension scenarios) a run passes
	# only when every check is SUCCESS: a SKIPPED check fails it too,
	# unless the suite skipped it as not applicable at the negotiated
	# protocol revision.
	local suite_decides=0
	if [[ " ${CONFORMANCE_ARGS:-} $* " =~ \ --(expected-failures|requirements) ]]; then
		suite_decides=1
	fi
	[[ "${STRICT:-0}" == 1 ]] && suite_decides=strict
	summary_rc=0
	"$NODE" - "$RESULTS" "$suite_decides" "$suite_rc" <<'EOF' || summary_rc=$?
const fs = require("fs"), path = require("path");
const [dir, suiteDecides, suiteRc] = process.argv.slice(2);
const byScenario = new Map();
for (const d of fs.readdirSync(dir).sort()) {
	const f = path.join(dir, d, "checks.json");
	if (!fs.existsSync(f)) continue;
	// Directory names are "server-<scenario>-<ISO timestamp with - for :.>".
	const m = /^server-(.*)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(d);
	const name = m ? m[1] : d;
	byScenario.set(name, JSON.parse(fs.readFileSync(f, "utf8")));
}
let passed = 0, failed = 0;
const problems = [];
for (const [name, checks] of byScenario) {
	const notApplicable = (c) => /^not applicable on negotiated protocol/.test(c.errorMessage || "");
	const bad = checks.filter((c) => c.status === "FAILURE" ||
		(suiteDecides === "strict" && !["SUCCESS", "INFO"].includes(c.status) && !(c.status === "SKIPPED" && notApplicable(c))));
	const warn = checks.filter((c) => c.status === "WARNING" && !bad.includes(c));
	if (bad.length) failed++; else passed++;
	for (const c of [...bad, ...warn]) {
		const msg = (c.errorMessage || (c.details && c.details.message) || c.description || "").replace(/\s+/g, " ").slice(0, 400);
		problems.push(`  ${bad.includes(c) ? "FAIL" : "WARN"} ${name} / ${c.id}: ${c.status === "FAILURE" ? "" : c.status + " "}${msg}`);
	}
}
console.log("\n=== conformance.sh summary ===");
if (problems.length) console.log("Failed checks and warnings:\n" + problems.join("\n"));
console.log(`Scenarios: ${[...byScenario.keys()].length} run`);
if (suiteDecides === "1") {
	console.log(`${failed} scenario(s) with failing checks; scored by the suite (exit ${suiteRc})`);
	console.log(`conformance: ${suiteRc === "0" ? 1 : 0} passed, ${suiteRc === "0" ? 0 : 1} failed`);
	process.exit(0);
}
if (byScenario.size === 0) { console.log("conformance: 0 passed, 1 failed"); process.exit(1); }
console.log(`conformance: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
EOF
}

# Without CONFORMANCE_ARGS the server is held to both protocol generations
# it serves from one endpoint: the 2025-11-25 requirement set, then the
# 2026-07-28 one (CONFORMANCE_REQUIREMENTS overrides the list), each scored
# by the suite.
overall_rc=0
if [[ -z "${CONFORMANCE_ARGS:-}" ]]; then
	for set in ${CONFORMANCE_REQUIREMENTS:-2025-11-25 2026-07-28}; do
		log "requirement set $set"
		run_suite --requirements "$set"
		if ((suite_rc != 0 || summary_rc != 0)); then overall_rc=1; fi
	done
	# Extension scenarios are in no requirement set: each runs on its own,
	# at its own revision (2026-07-28), then forced onto the handshake
	# era, and passes only when every check that applies is SUCCESS.
	for scenario in ${CONFORMANCE_EXTENSIONS-$EXTENSION_SCENARIOS}; do
		for era in ${CONFORMANCE_EXTENSION_ERAS:-2026-07-28 2025-11-25}; do
			log "extension scenario $scenario at $era"
			STRICT=1 run_suite --scenario "$scenario" --spec-version "$era" --force
			if ((suite_rc != 0 || summary_rc != 0)); then overall_rc=1; fi
		done
	done
else
	run_suite
	if ((suite_rc != 0 || summary_rc != 0)); then overall_rc=1; fi
fi
suite_rc=$overall_rc
summary_rc=0

if ((suite_rc != 0 || summary_rc != 0)); then
	if [[ -n "$SERVER_PID" ]]; then
		if kill -0 "$SERVER_PID" 2>/dev/null; then
			log "last lines of the server's output:"
			tail -n 40 "$SERVER_LOG" | sed 's/^/  | /' >&2
		else
			log "the server died during the run; its output:"
			sed 's/^/  | /' "$SERVER_LOG" >&2
		fi
	fi
	log "FAILED (suite exit $suite_rc)"
	exit 1
fi
log "passed"
