#!/usr/bin/env bash
# Starts Debian's redis-server on a free loopback port, without persistence (--save '' --appendonly no),
# waits until it answers PING, and prints two lines:
#   REDIS_URL=redis://127.0.0.1:<port>
#   REDIS_STATE_DIR=<dir>      (pass to stop.sh; holds the pid file and redis.log)
set -euo pipefail
command -v redis-server >/dev/null || { echo "redis/start: redis-server is required (apt-get install -y redis-server)" >&2; exit 1; }
port="$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
state="$(mktemp -d "${TMPDIR:-/tmp}/vigil-redis.XXXXXX")"
redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --daemonize yes \
  --dir "$state" --pidfile "$state/redis.pid" --logfile "$state/redis.log" \
  || { rm -rf "$state"; exit 1; }
for _ in $(seq 1 100); do
  if [[ "$(redis-cli -p "$port" ping 2>/dev/null)" == "PONG" && -s "$state/redis.pid" ]]; then
    echo "REDIS_URL=redis://127.0.0.1:$port"
    echo "REDIS_STATE_DIR=$state"
    exit 0
  fi
  sleep 0.1
done
echo "redis/start: redis-server did not answer on port $port; log:" >&2
cat "$state/redis.log" >&2 || true
[[ -s "$state/redis.pid" ]] && kill "$(cat "$state/redis.pid")" 2>/dev/null || true
rm -rf "$state"
exit 1
