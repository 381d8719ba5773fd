#!/usr/bin/env bash
# Installs the API fuzzer Schemathesis (from PyPI) into a virtual environment under .cache, once.
# Used by .ci/run and by `npm test` (tools/run-tests.cjs) before the e2e project runs it against /openapi.json.
# Prints the path of the schemathesis executable.
set -euo pipefail
cd "$(dirname "$0")/../.."
version="$(cat tools/schemathesis/VERSION)"
venv=".cache/schemathesis-venv"
bin="$venv/bin/schemathesis"
if [[ -x "$bin" ]] && "$bin" --version 2>/dev/null | grep -q "version $version\$"; then
  echo "$PWD/$bin"
  exit 0
fi
python3 -m venv "$venv" >&2
"$venv/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$version" >&2
echo "$PWD/$bin"
