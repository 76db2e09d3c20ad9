#!/usr/bin/env bash
# Measures where vurb stands with replicas and no sticky sessions (issue
# #30): the official MCP conformance suite run through a round-robin load
# balancer in front of several replicas of examples/conformance that share
# one Redis.
#
#   scripts/replicas.sh              # three replicas
#   REPLICAS=1 scripts/replicas.sh   # the same path with one replica: the baseline
#
# What it does: installs redis-server and haproxy with apt-get if they are
# missing (as root, or with passwordless sudo), builds examples/conformance,
# starts one redis-server, REPLICAS replicas on 127.0.0.1 (each with
# -redis redis://127.0.0.1:PORT, hence tasks and handshake-era sessions in
# redisstate and one request-state key derived from that URL, for tests
# only), and HAProxy in front of them: `balance roundrobin`, `option
# httpchk` on each replica's /readyz (vurb's readiness), no affinity of any kind (no cookie,
# no stick table, no prefer-last-server), so that every request may land
# on another replica. Then it runs scripts/conformance.sh against
# HAProxy's URL (CONFORMANCE_URL): the 2026-07-28 and 2025-11-25
# requirement sets, then each tasks-* scenario (the tasks extension,
# SEP-2663) at 2026-07-28, every check required to be SUCCESS, as
# conformance.sh runs its extension scenarios. (Not forced onto 2025-11-25:
# vurb serves the extension at 2026-07-28, and there even one process
# fails them all, so they would measure nothing about replicas.)
# It prints the suite's output, then a summary of pass counts per run and
# the failing checks, and tears everything down (trap).
#
# By default it reports; it does not judge: its exit status is 0 whatever
# the suite finds, and 2 only when the harness itself could not be set up.
# With REPLICAS_STRICT=1 it judges, from the same summary: it exits 1
# unless, in each requirement set, every scenario passes, scored or not,
# and every extension run passes (every check SUCCESS). An extension
# scenario that the suite itself skips as a whole (no check run, `Passed:
# 0/0`, as 0.2.0-alpha.12 does with tasks-status-notifications pending
# its harness rewrite) cannot pass on any server: it is listed as `skip`
# and does not count. .ci/run runs it so (CI_REPLICAS=0 turns it off).
#
# HAProxy retries a request whose replica refused the connection, or a
# GET or DELETE it closed without an answer, on another replica (`retries
# 3`, `option redispatch`, `retry-on conn-failure empty-response`,
# `disable-l7-retry` for POST): a replica that dies is invisible to
# clients, but for the calls it was running, which fail rather than run
# twice.
#
# Environment (all optional):
#   REPLICAS            how many replicas (default 3)
#   REPLICAS_REQUIREMENTS  requirement sets (default '2026-07-28 2025-11-25')
#   REPLICAS_SCENARIOS  extension scenarios (default: the ten tasks-* ones)
#   REPLICAS_ERAS       the revisions they run at (default 2026-07-28)
#   REPLICAS_LOG        also keep the full output in this file
#   REPLICAS_STRICT     1: exit 1 unless every scenario passes (see above)
#   REPLICAS_KEEP_LOGS  also copy the logs of redis, the replicas and HAProxy,
#                       and haproxy.cfg, into this dir
#   CONFORMANCE_*       passed on to scripts/conformance.sh (its -h)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
REPLICAS="${REPLICAS:-3}"
REQUIREMENTS="${REPLICAS_REQUIREMENTS:-2026-07-28 2025-11-25}"
TASKS_SCENARIOS="tasks-lifecycle tasks-capability-negotiation tasks-wire-fields tasks-request-state-removal tasks-mrtr-input tasks-request-headers tasks-dispatch-and-envelope tasks-status-notifications tasks-required-task-error tasks-mrtr-composition"
SCENARIOS="${REPLICAS_SCENARIOS-$TASKS_SCENARIOS}"
HOST=127.0.0.1

log() { printf 'replicas.sh: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 2; }

if [[ "${1:-}" == "-h" || "${1:-}" == "--help" ]]; then
	sed -n '2,/^set -euo pipefail/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'
	exit 0
fi
[[ "$REPLICAS" =~ ^[1-9][0-9]*$ ]] || die "REPLICAS must be a positive number, not '$REPLICAS'"
STRICT="${REPLICAS_STRICT:-0}"
[[ "$STRICT" == 0 || "$STRICT" == 1 ]] || die "REPLICAS_STRICT must be 0 or 1, not '$STRICT'"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/vurb-replicas.XXXXXX")"
PIDS=() # every process this script started, each in its own process group

cleanup() {
	local rc=$?
	local pid
	for pid in "${PIDS[@]}"; do
		kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
	done
	for pid in "${PIDS[@]}"; do
		for _ in $(seq 1 50); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
		kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	done
	rm -rf "$WORK"
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# start NAME CMD... runs CMD in the background in its own process group,
# its output in $WORK/NAME.log, and records its pid.
start() {
	local name=$1
	shift
	if command -v setsid >/dev/null 2>&1; then
		setsid "$@" >"$WORK/$name.log" 2>&1 </dev/null &
	else
		"$@" >"$WORK/$name.log" 2>&1 </dev/null &
	fi
	PIDS+=($!)
	LAST_PID=$!
}

# ---------------------------------------------------------------------------
# redis-server and haproxy, Debian's
# ---------------------------------------------------------------------------
as_root() {
	if [[ "$(id -u)" == 0 ]]; then "$@"; return; fi
	if ! command -v sudo >/dev/null || ! sudo -n true 2>/dev/null; then
		die "$* needs root (no root, no passwordless sudo)"
	fi
	sudo -n "$@"
}
missing=()
command -v redis-server >/dev/null || missing+=(redis-server)
command -v haproxy >/dev/null || [[ -x /usr/sbin/haproxy ]] || missing+=(haproxy)
if ((${#missing[@]})); then
	log "installing ${missing[*]}"
	as_root apt-get update -qq
	as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2
fi
HAPROXY="$(command -v haproxy || echo /usr/sbin/haproxy)"

# A free port: one nothing answers on, not already handed out, and below
# the kernel's ephemeral range. A port inside that range can be held by
# an outgoing connection (the conformance run just before leaves many), and
# then nothing answers on it yet binding it fails: CI once lost its Redis
# that way.
USED_PORTS=" "
EPHEMERAL_LOW=32768
if [[ -r /proc/sys/net/ipv4/ip_local_port_range ]]; then
	read -r EPHEMERAL_LOW _ </proc/sys/net/ipv4/ip_local_port_range
fi
PORT_LOW=10000
((EPHEMERAL_LOW > PORT_LOW + 1000)) || PORT_LOW=1024
free_port() {
	local p
	for _ in $(seq 1 200); do
		p=$((PORT_LOW + RANDOM % (EPHEMERAL_LOW - PORT_LOW)))
		[[ "$USED_PORTS" == *" $p "* ]] && continue
		if ! (exec 3<>"/dev/tcp/$HOST/$p") 2>/dev/null; then
			USED_PORTS+="$p "
			echo "$p"
			return
		fi
	done
	die "no free port found"
}

# wait_for NAME PID CHECK... waits until CHECK succeeds, or the process ends.
wait_for() {
	local name=$1 pid=$2
	shift 2
	local deadline=$((SECONDS + 30))
	until "$@" >/dev/null 2>&1; do
		if ! kill -0 "$pid" 2>/dev/null; then
			log "$name exited before it was ready; its output:"
			sed 's/^/  | /' "$WORK/$name.log" >&2
			exit 2
		fi
		((SECONDS < deadline)) || die "$name not ready within 30s"
		sleep 0.2
	done
}

http_ok() { curl -fs -o /dev/null --max-time 2 "$1"; }

# ---------------------------------------------------------------------------
# Build, then start Redis, the replicas and HAProxy
# ---------------------------------------------------------------------------
command -v curl >/dev/null || die "need curl"
log "building examples/conformance"
(cd "$ROOT/examples/conformance" && go build -o "$WORK/conformance" .)

REDIS_PORT="$(free_port)"
start redis redis-server --bind "$HOST" --port "$REDIS_PORT" --save '' --appendonly no \
	--dir "$WORK" --protected-mode yes
wait_for redis "$LAST_PID" redis-cli -h "$HOST" -p "$REDIS_PORT" ping
log "redis-server at $HOST:$REDIS_PORT (pid $LAST_PID)"

servers=""
for i in $(seq 1 "$REPLICAS"); do
	port="$(free_port)"
	start "replica$i" "$WORK/conformance" -http "$HOST:$port" -redis "redis://$HOST:$REDIS_PORT"
	wait_for "replica$i" "$LAST_PID" http_ok "http://$HOST:$port/readyz"
	log "replica $i at http://$HOST:$port/mcp (pid $LAST_PID)"
	servers+="	server r$i $HOST:$port check inter 1s fall 2 rise 1"$'\n'
done

LB_PORT="$(free_port)"
# scripts/haproxy.cfg, the balancer every replicas run shares, with this
# run's address and servers.
BIND="$HOST:$LB_PORT" SERVERS="$servers" awk \
	'/^@SERVERS@$/ { printf "%s", ENVIRON["SERVERS"]; next } { sub(/@BIND@/, ENVIRON["BIND"]); print }' \
	"$ROOT/scripts/haproxy.cfg" >"$WORK/haproxy.cfg"
"$HAPROXY" -c -q -f "$WORK/haproxy.cfg" || die "haproxy refused its config:"$'\n'"$(cat "$WORK/haproxy.cfg")"
start haproxy "$HAPROXY" -db -f "$WORK/haproxy.cfg"
URL="http://$HOST:$LB_PORT/mcp"
wait_for haproxy "$LAST_PID" http_ok "http://$HOST:$LB_PORT/readyz"
log "HAProxy at $URL, round robin over $REPLICAS replica(s)"

# ---------------------------------------------------------------------------
# The suite, through HAProxy, as scripts/conformance.sh runs it
# ---------------------------------------------------------------------------
OUT="$WORK/suite.log"
suite_rc=0
CONFORMANCE_URL="$URL" CONFORMANCE_REQUIREMENTS="$REQUIREMENTS" CONFORMANCE_EXTENSIONS="$SCENARIOS" \
	CONFORMANCE_EXTENSION_ERAS="${REPLICAS_ERAS:-2026-07-28}" \
	bash "$ROOT/scripts/conformance.sh" 2>&1 | tee "$OUT" || suite_rc=$?
[[ -n "${REPLICAS_LOG:-}" ]] && cp "$OUT" "$REPLICAS_LOG"

# One line per run: the requirement sets with the suite's own score and
# the scenarios with a failing check; the extension scenarios passed or not.
{
	echo
	echo "=== replicas.sh: $REPLICAS replica(s) of examples/conformance, one redis-server, HAProxy round robin, no affinity ==="
	awk '
		function flush(   name, sp, sf, np, nf) {
			if (run == "") return
			if (kind == "set") {
				sp = sf = np = nf = 0
				for (name in ok) {
					if (name in unscored) { if (ok[name]) np++; else nf++ }
					else { if (ok[name]) sp++; else sf++ }
				}
				printf "requirements %s: %d of %d scored scenarios pass; not scored (extension, pending, added after release): %d of %d pass; checks: %s\n", run, sp, sp + sf, np, np + nf, checks
				for (name in ok) if (!ok[name]) printf "  FAIL %s%s\n", name, (name in unscored) ? " (not scored)" : ""
			} else {
				ext[run] = verdict
			}
			run = ""; checks = "?"; verdict = "?"
			delete ok; delete unscored
		}
		/^conformance.sh: requirement set / { flush(); run = $4; kind = "set"; sets++; next }
		/^conformance.sh: extension scenario / { flush(); run = $4 " at " $6; kind = "ext"; order[++n] = run; next }
		# The suite lists every scenario of a set, then the ones it does not score.
		kind == "set" && /^(✓|✗) [^ ]+: / { name = $2; sub(/:$/, "", name); ok[name] = ($1 == "✓") }
		kind == "set" && /^  (✓|✗) [^ ]+ \(/ { unscored[$2] = 1 }
		kind == "set" && /^Total: / { checks = $2 " passed, " $4 " failed" }
		# A scenario the suite skips as a whole runs no check: "Passed: 0/0".
		kind == "ext" && /^Passed: 0\/0,/ { empty = 1 }
		/^conformance: [0-9]+ passed, [0-9]+ failed/ { verdict = ($2 > 0 && $4 == 0) ? "pass" : (empty ? "skip" : "FAIL"); empty = 0; last = $0 }
		END {
			flush()
			if (!n && !sets) print "one run (CONFORMANCE_ARGS): " last
			if (n) {
				passed = skipped = 0
				for (i = 1; i <= n; i++) { if (ext[order[i]] == "pass") passed++; if (ext[order[i]] == "skip") skipped++ }
				printf "extension scenarios, every check SUCCESS: %d of %d runs pass (%d skipped by the suite itself)\n", passed, n, skipped
				for (i = 1; i <= n; i++) printf "  %-4s %s\n", ext[order[i]], order[i]
			}
		}
	' "$OUT"
	echo "(conformance.sh exit $suite_rc)"
} | tee -a "$OUT" >"$WORK/summary.txt"

if [[ "${REPLICAS_KEEP_LOGS:-}" != "" ]]; then
	mkdir -p "$REPLICAS_KEEP_LOGS" && cp "$WORK"/*.log "$WORK/haproxy.cfg" "$REPLICAS_KEEP_LOGS"/
fi
cat "$WORK/summary.txt"
[[ "$STRICT" == 1 ]] || exit 0

# Strict: judged from the summary above, and from what should be in it:
# one line per requirement set and one per extension run, so that a run
# the suite never finished fails too.
eras=(${REPLICAS_ERAS:-2026-07-28})
want_sets=$(wc -w <<<"$REQUIREMENTS")
want_ext=$(($(wc -w <<<"$SCENARIOS") * ${#eras[@]}))
got_sets=$(grep -c '^requirements ' "$WORK/summary.txt" || true)
got_ext=$(grep -cE '^  (pass|skip|FAIL) +[^ ]+ at [0-9-]+$' "$WORK/summary.txt" || true)
bad=()
((got_sets == want_sets)) || bad+=("$got_sets of $want_sets requirement sets reported")
((got_ext == want_ext)) || bad+=("$got_ext of $want_ext extension runs reported")
# Every failing scenario, of a set (scored or not) or an extension run, is
# a "  FAIL" line; a set that ran nothing is "0 of 0".
while read -r line; do bad+=("$line"); done < <(
	grep -E '^requirements [^ ]+: 0 of 0 scored' "$WORK/summary.txt" | sed 's/;.*//' || true
	grep -E '^  FAIL ' "$WORK/summary.txt" | sed 's/^  //' || true
)
if ((${#bad[@]})); then
	log "REPLICAS_STRICT: FAILED with $REPLICAS replica(s):"
	printf '  %s\n' "${bad[@]}" >&2
	exit 1
fi
log "REPLICAS_STRICT: every scenario passes with $REPLICAS replica(s)"
