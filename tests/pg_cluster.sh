#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for tests, on 127.0.0.1 and a free port.
#
#   tests/pg_cluster.sh start DIR   initdb + pg_ctl start in DIR (created, must not hold a
#                                   cluster yet); prints the server's URL, e.g.
#                                   postgresql://batak@127.0.0.1:54321/postgres
#   tests/pg_cluster.sh stop DIR    stop the cluster in DIR and delete DIR
#
# Installs Debian's postgresql package when no initdb is found (needs root and apt).
# initdb refuses to run as root: as root the cluster belongs to the "postgres" user (made
# by the Debian package) or, failing that, to a created "batakpg" user.
# Tests connect as superuser "batak" without a password (trust, loopback only): they
# create one database per test. fsync is off unless PG_CLUSTER_DURABLE=1 (for benches).
set -euo pipefail

find_bin() {
    local d
    if command -v initdb >/dev/null 2>&1; then dirname "$(command -v initdb)"; return; fi
    for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
        [ -x "$d/initdb" ] && { echo "$d"; return; }
    done
    return 1
}

as_owner() {  # run a command as the cluster's owner
    if [ "$(id -u)" = 0 ]; then runuser -u "$OWNER" -- "$@"; else "$@"; fi
}

pick_owner() {
    OWNER=$(id -un)
    if [ "$(id -u)" = 0 ]; then
        if id postgres >/dev/null 2>&1; then OWNER=postgres
        else id batakpg >/dev/null 2>&1 || useradd --system --no-create-home batakpg; OWNER=batakpg
        fi
    fi
}

cmd=${1:-}; dir=${2:-}
[ -n "$cmd" ] && [ -n "$dir" ] || { sed -n '2,14p' "$0" >&2; exit 2; }

case "$cmd" in
start)
    if ! BIN=$(find_bin); then
        echo "pg_cluster: installing PostgreSQL from Debian's packages" >&2
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql >&2 \
            || { apt-get update -q >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql >&2; }
        BIN=$(find_bin)
    fi
    pick_owner
    mkdir -p "$dir"
    [ -e "$dir/data" ] && { echo "pg_cluster: $dir already holds a cluster" >&2; exit 1; }
    chown "$OWNER" "$dir" 2>/dev/null || true
    PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    as_owner "$BIN/initdb" -D "$dir/data" -U batak --auth=trust -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; exit 1; }
    # durability off by default: a test cluster is thrown away, and a busy CI disk makes
    # commits slow. PG_CLUSTER_DURABLE=1: fsync and synchronous commits on (benchmarks).
    if [ "${PG_CLUSTER_DURABLE:-0}" = 1 ]; then sync="-c fsync=on -c synchronous_commit=on"
    else sync="-c fsync=off -c synchronous_commit=off -c full_page_writes=off"; fi
    as_owner "$BIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start \
        -o "-c listen_addresses=127.0.0.1 -c port=$PORT -c unix_socket_directories='$dir' $sync -c max_connections=200" >&2 \
        || { cat "$dir/server.log" >&2; exit 1; }
    echo "$BIN" >"$dir/bin"
    echo "postgresql://batak@127.0.0.1:$PORT/postgres"
    ;;
stop)
    if [ -f "$dir/bin" ] && [ -d "$dir/data" ]; then
        pick_owner
        as_owner "$(cat "$dir/bin")/pg_ctl" -D "$dir/data" -m immediate -w stop >&2 || true
    fi
    rm -rf "$dir"
    ;;
*)
    sed -n '2,14p' "$0" >&2; exit 2 ;;
esac
