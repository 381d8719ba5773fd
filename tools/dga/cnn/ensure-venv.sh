#!/usr/bin/env bash
# Installs the DGA CNN trainer's Python packages (tools/dga/cnn/requirements.txt, from PyPI) into .cache/dga-venv,
# once. Only retraining the DGA model needs it; `npm test` does not. Prints the path of the venv's python.
set -euo pipefail
cd "$(dirname "$0")/../../.."
venv=".cache/dga-venv"
stamp="$venv/.requirements"
if [[ -x "$venv/bin/python" ]] && cmp -s tools/dga/cnn/requirements.txt "$stamp"; then
  echo "$PWD/$venv/bin/python"
  exit 0
fi
python3 -m venv "$venv" >&2
"$venv/bin/pip" install --quiet --disable-pip-version-check -r tools/dga/cnn/requirements.txt >&2
cp tools/dga/cnn/requirements.txt "$stamp"
echo "$PWD/$venv/bin/python"
