# Sourced by bin/test: the Python environment of the client tests (pinotdb and its SQLAlchemy
# dialect, run against a real node by TestPythonClients), built from the pinned requirements file.
# Idempotent and cheap when present: the venv is rebuilt only when the requirements file changed.

shelfmark_pyenv() { # $1 = repository root; prints the venv's python path on success
  local root=$1 requirements="$1/cli/src/test/python/requirements.txt" venv="$1/.shelfmark-build/pyenv"
  local python stamp="$venv/requirements.sha256" sum
  python=$(command -v python3 || true)
  if [[ -z $python ]]; then
    echo "Cannot build the Python client environment: python3 (3.10 or newer, with venv) is not on PATH" >&2
    return 1
  fi
  sum=$(sha256sum "$requirements" | cut -d' ' -f1)
  if [[ -x $venv/bin/python && -f $stamp && $(cat "$stamp") == "$sum" ]]; then
    echo "$venv/bin/python"
    return 0
  fi
  echo "Building the Python client environment in $venv (from ${requirements#"$root"/})" >&2
  rm -rf "$venv"
  "$python" -m venv "$venv" >&2 || {
    echo "Cannot create a venv with $python (install the python3-venv package)" >&2
    return 1
  }
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$requirements" >&2 || {
    echo "Cannot install ${requirements#"$root"/} into $venv (is PyPI reachable?)" >&2
    return 1
  }
  echo "$sum" >"$stamp"
  echo "$venv/bin/python"
}
