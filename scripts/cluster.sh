#!/usr/bin/env bash
# `make cluster`: Redis, three salad nodes and HAProxy on this machine, on the PostgreSQL that
# scripts/postgres.sh starts (run as `scripts/postgres.sh scripts/cluster.sh`). Open
# http://127.0.0.1:8000/ ; Ctrl-C stops everything (the throwaway database goes with it).
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
salad="$here/.venv/bin/salad"
db="${SALAD_TEST_POSTGRES_URL:-}"
if [ -z "$db" ]; then
    echo "cluster.sh: no PostgreSQL (run it as scripts/postgres.sh scripts/cluster.sh)" >&2
    exit 1
fi
for tool in redis-server haproxy; do
    command -v "$tool" >/dev/null || { echo "cluster.sh: $tool is missing (make system-deps)" >&2; exit 1; }
done
for port in 6390 8000 8001 8002 8003; do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
        echo "cluster.sh: port $port is in use (a salad server or another make cluster?); \
stop what listens there (ss -ltnp 'sport = :$port') and try again" >&2
        exit 1
    fi
done
dir=$(mktemp -d "${TMPDIR:-/tmp}/salad-cluster.XXXXXX")
pids=()
stop() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
    wait 2>/dev/null
    rm -rf "$dir"
}
trap stop EXIT
# Ctrl-C (or TERM) while it starts: stop and exit, rather than carry on and report the
# processes just stopped as having failed to start.
trap 'exit 130' INT TERM

redis-server --port 6390 --bind 127.0.0.1 --save "" --appendonly no --logfile "$dir/redis.log" &
pids+=($!)
redis="redis://127.0.0.1:6390/0"
sleep 0.5
for port in 8001 8002 8003; do
    # --node-name: the node's `server` name in deploy/haproxy.cfg (node1 on 8001, ...);
    # --proxy: HAProxy, on this machine, says who its clients are (X-Forwarded-For).
    "$salad" serve --port "$port" --database "$db" --redis "$redis" --node-name "node${port: -1}" \
        --proxy 127.0.0.1 >"$dir/node$port.log" 2>&1 &
    pids+=($!)
done
for port in 8001 8002 8003; do
    up=""
    for _ in $(seq 150); do
        curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && { up=1; break; }
        sleep 0.1
    done
    if [ -z "$up" ]; then
        echo "cluster.sh: the node on port $port did not come up; its log ends:" >&2
        tail -n 5 "$dir/node$port.log" >&2
        exit 1
    fi
done
haproxy -db -f "$here/deploy/haproxy.cfg" >"$dir/haproxy.log" 2>&1 &
pids+=($!)
sleep 0.5
if ! kill -0 "${pids[-1]}" 2>/dev/null; then
    echo "cluster.sh: HAProxy stopped at start; its log:" >&2
    cat "$dir/haproxy.log" >&2
    exit 1
fi
echo "salad cluster: http://127.0.0.1:8000/ (nodes on 8001-8003, Redis on 6390; logs in $dir)"
echo "Ctrl-C stops it."
wait
