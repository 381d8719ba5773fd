#!/usr/bin/env bash
# Fetches the Apache Kafka broker jars (and their runtime dependencies) from Maven Central into
# .cache/kafka/<version>/libs, once. Prints that directory. Needs Java and Maven (mvn).
#   KAFKA_VERSION   broker version (default 3.9.1)
#   KAFKA_CACHE_DIR cache root (default <repo>/.cache/kafka)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
version="${KAFKA_VERSION:-3.9.1}"
cache="${KAFKA_CACHE_DIR:-$repo/.cache/kafka}/$version"
libs="$cache/libs"

if [[ -f "$libs/kafka_2.13-$version.jar" ]]; then
  echo "$libs"
  exit 0
fi
command -v mvn >/dev/null || { echo "fetch-jars: mvn (Maven) is required" >&2; exit 1; }

mkdir -p "$cache"
staging="$(mktemp -d "$cache/libs.partial.XXXXXX")"
trap 'rm -rf "$staging"' EXIT
echo "fetch-jars: downloading Kafka $version from Maven Central ..." >&2
mvn -q -B -f "$here/pom.xml" -Dkafka.version="$version" \
  dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$staging" >&2
[[ -f "$staging/kafka_2.13-$version.jar" ]] || { echo "fetch-jars: kafka_2.13-$version.jar missing after download" >&2; exit 1; }
# Rename into place only when complete, so an interrupted download is never mistaken for a cache hit.
rm -rf "$libs"
mv "$staging" "$libs"
trap - EXIT
echo "$libs"
