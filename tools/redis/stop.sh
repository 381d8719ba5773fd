#!/usr/bin/env bash
# Stops a redis-server started by start.sh (SIGTERM, then SIGKILL after 5 s) and deletes its state directory.
#   usage: stop.sh <REDIS_STATE_DIR>
set -euo pipefail
state="${1:?usage: stop.sh <REDIS_STATE_DIR>}"
[[ -f "$state/redis.pid" ]] || { echo "redis/stop: no redis.pid in $state" >&2; exit 1; }
pid="$(cat "$state/redis.pid")"
if kill -0 "$pid" 2>/dev/null; then
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null || true
fi
rm -rf "$state"
