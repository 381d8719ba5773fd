#!/usr/bin/env bash
# Starts a single-node KRaft Kafka broker (broker + controller in one JVM) on free loopback ports with a
# fresh temporary log directory, waits until it accepts connections, and prints two lines:
#   KAFKA_BROKERS=127.0.0.1:<port>
#   KAFKA_STATE_DIR=<dir>      (pass to stop.sh or restart.sh; holds the pid, config, data and server.log)
# Jars come from fetch-jars.sh (downloaded on first use). Env: KAFKA_VERSION, KAFKA_HEAP (default 512m),
# KAFKA_START_TIMEOUT (seconds, default 90).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
libs="$("$here/fetch-jars.sh")"
command -v java >/dev/null || { echo "kafka/start: java is required" >&2; exit 1; }

free_port() { node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
port="$(free_port)"
controller_port="$(free_port)"
while [[ "$controller_port" == "$port" ]]; do controller_port="$(free_port)"; done

state="$(mktemp -d "${TMPDIR:-/tmp}/vigil-kafka.XXXXXX")"
cat > "$state/server.properties" <<PROPS
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$controller_port
listeners=PLAINTEXT://127.0.0.1:$port,CONTROLLER://127.0.0.1:$controller_port
advertised.listeners=PLAINTEXT://127.0.0.1:$port
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
log.dirs=$state/data
num.partitions=1
default.replication.factor=1
min.insync.replicas=1
offsets.topic.replication.factor=1
offsets.topic.num.partitions=3
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
group.initial.rebalance.delay.ms=0
auto.create.topics.enable=false
log.flush.interval.messages=9223372036854775807
PROPS

java_opts=(-Xms128m "-Xmx${KAFKA_HEAP:-512m}" -XX:+UseSerialGC -XX:TieredStopAtLevel=1
  -Djava.awt.headless=true "-Dkafka.logs.dir=$state" "-Dlog4j.configuration=file:$here/log4j.properties")
cluster_id="$(java -cp "$libs/*" kafka.tools.StorageTool random-uuid 2>/dev/null | tail -n 1)"
java "${java_opts[@]}" -cp "$libs/*" kafka.tools.StorageTool format -t "$cluster_id" \
  -c "$state/server.properties" > "$state/format.log" 2>&1 \
  || { cat "$state/format.log" >&2; rm -rf "$state"; exit 1; }

# Launching and waiting for readiness is restart.sh's job (it also serves tests that restart this broker).
"$here/restart.sh" "$state" > /dev/null || { rm -rf "$state"; exit 1; }
echo "KAFKA_BROKERS=127.0.0.1:$port"
echo "KAFKA_STATE_DIR=$state"
