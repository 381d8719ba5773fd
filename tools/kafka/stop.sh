#!/usr/bin/env bash
# Stops a broker started by start.sh (SIGTERM, then SIGKILL after 20 s) and deletes its state directory.
#   usage: stop.sh <KAFKA_STATE_DIR> [--keep]   (--keep leaves the directory, e.g. to read server.log)
set -euo pipefail
state="${1:?usage: stop.sh <KAFKA_STATE_DIR> [--keep]}"
[[ -f "$state/kafka.pid" ]] || { echo "kafka/stop: no kafka.pid in $state" >&2; exit 1; }
pid="$(cat "$state/kafka.pid")"
if kill -0 "$pid" 2>/dev/null; then
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 80); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
  kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null || true
fi
[[ "${2:-}" == "--keep" ]] || rm -rf "$state"
