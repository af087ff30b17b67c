#!/usr/bin/env bash
# Run a command with a throwaway PostgreSQL server:
#
#   scripts/postgres.sh COMMAND [ARGS...]
#
# initdb's a cluster in a temporary directory, starts it on a free loopback port, creates the
# database salad_test, runs COMMAND with SALAD_TEST_POSTGRES_URL=postgresql://salad@127.0.0.1:PORT/
# salad_test in its environment, then stops the server and deletes the directory. COMMAND's exit
# status is returned. If PostgreSQL is not installed or cannot start, a warning is printed and
# COMMAND runs without the variable (the PostgreSQL tests then skip, saying why).
#
# As root, the cluster belongs to the `postgres` user (PostgreSQL refuses to run as root).
set -u

warn() { echo "postgres.sh: $*; PostgreSQL tests will be skipped" >&2; }

run_without() {
    unset SALAD_TEST_POSTGRES_URL
    "$@"
    exit $?
}

if [ $# -eq 0 ]; then
    echo "usage: scripts/postgres.sh COMMAND [ARGS...]" >&2
    exit 2
fi

bindir=""
if command -v pg_config >/dev/null 2>&1 && [ -x "$(pg_config --bindir)/initdb" ]; then
    bindir=$(pg_config --bindir)
fi
if [ -z "$bindir" ]; then
    for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
        if [ -x "$d/initdb" ]; then bindir=$d; break; fi
    done
fi
if [ -z "$bindir" ]; then
    warn "initdb not found (make system-deps installs postgresql)"
    run_without "$@"
fi

as_user=()
if [ "$(id -u)" = 0 ]; then
    if ! id postgres >/dev/null 2>&1; then
        warn "running as root and there is no postgres user"
        run_without "$@"
    fi
    if command -v runuser >/dev/null 2>&1; then
        as_user=(runuser -u postgres --)
    else
        as_user=(su postgres -s /bin/sh -c '"$0" "$@"')
    fi
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/salad-pg.XXXXXX")
if [ ${#as_user[@]} -gt 0 ]; then chown postgres "$dir"; fi
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

cleanup() {
    "${as_user[@]}" "$bindir/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1
    rm -rf "$dir"
}

if ! "${as_user[@]}" "$bindir/initdb" -D "$dir/data" -U salad -A trust -E UTF8 --no-sync \
        >"$dir/initdb.log" 2>&1; then
    warn "initdb failed: $(tail -n 3 "$dir/initdb.log" | tr '\n' ' ')"
    cleanup
    run_without "$@"
fi
if ! "${as_user[@]}" "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
        -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" \
        start >/dev/null 2>&1; then
    warn "the server did not start: $(tail -n 3 "$dir/server.log" 2>/dev/null | tr '\n' ' ')"
    cleanup
    run_without "$@"
fi
trap cleanup EXIT
if ! "${as_user[@]}" "$bindir/createdb" -h 127.0.0.1 -p "$port" -U salad salad_test \
        >/dev/null 2>&1; then
    warn "createdb failed"
    cleanup
    trap - EXIT
    run_without "$@"
fi

export SALAD_TEST_POSTGRES_URL="postgresql://salad@127.0.0.1:$port/salad_test"
echo "postgres.sh: PostgreSQL on port $port (SALAD_TEST_POSTGRES_URL=$SALAD_TEST_POSTGRES_URL)" >&2
"$@"
status=$?
exit $status
