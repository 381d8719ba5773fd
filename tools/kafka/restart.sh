#!/usr/bin/env bash
# (Re)starts the broker of a state directory made by start.sh, on the same ports, configuration and log
# directory (so its topics, records and committed offsets survive): stops it first if it runs (SIGTERM, as
# stop.sh --keep), launches it again and waits until it accepts connections. Prints KAFKA_BROKERS=... .
#   usage: restart.sh <KAFKA_STATE_DIR>      Env: KAFKA_HEAP (default 512m), KAFKA_START_TIMEOUT (s, default 90)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
state="${1:?usage: restart.sh <KAFKA_STATE_DIR>}"
[[ -f "$state/server.properties" ]] || { echo "kafka/restart: no server.properties in $state" >&2; exit 1; }
port="$(sed -n 's|^listeners=PLAINTEXT://[^:]*:\([0-9]*\),.*|\1|p' "$state/server.properties")"
[[ -n "$port" ]] || { echo "kafka/restart: no PLAINTEXT listener in $state/server.properties" >&2; exit 1; }
libs="$("$here/fetch-jars.sh")"
command -v java >/dev/null || { echo "kafka/restart: java is required" >&2; exit 1; }

if [[ -f "$state/kafka.pid" ]] && kill -0 "$(cat "$state/kafka.pid")" 2>/dev/null; then
  "$here/stop.sh" "$state" --keep
fi
# Readiness below reads this run's log only; earlier runs' lines move to server.previous.log.
if [[ -f "$state/server.log" ]]; then
  cat "$state/server.log" >> "$state/server.previous.log"
  rm -f "$state/server.log"
fi

java_opts=(-Xms128m "-Xmx${KAFKA_HEAP:-512m}" -XX:+UseSerialGC -XX:TieredStopAtLevel=1
  -Djava.awt.headless=true "-Dkafka.logs.dir=$state" "-Dlog4j.configuration=file:$here/log4j.properties")
nohup java "${java_opts[@]}" -cp "$libs/*" kafka.Kafka "$state/server.properties" \
  >> "$state/stdout.log" 2>&1 < /dev/null &
echo $! > "$state/kafka.pid"

deadline=$((SECONDS + ${KAFKA_START_TIMEOUT:-90}))
# Ready once the broker has registered with the controller and opened its client listener.
until grep -q "\[KafkaRaftServer nodeId=1\] Kafka Server started" "$state/server.log" 2>/dev/null \
      && (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do
  if ! kill -0 "$(cat "$state/kafka.pid")" 2>/dev/null; then
    echo "kafka/restart: the broker exited; last log lines:" >&2
    tail -n 30 "$state/stdout.log" "$state/server.log" >&2 2>/dev/null || true
    exit 1
  fi
  if (( SECONDS > deadline )); then
    echo "kafka/restart: the broker did not start within ${KAFKA_START_TIMEOUT:-90}s (logs in $state)" >&2
    "$here/stop.sh" "$state" --keep >/dev/null 2>&1 || true
    exit 1
  fi
  sleep 0.5
done
echo "KAFKA_BROKERS=127.0.0.1:$port"
