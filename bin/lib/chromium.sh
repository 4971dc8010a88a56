# Sourced by bin/test: the headless Chromium the console's browser test drives (TestConsoleInBrowser,
# through Playwright with executable_path; Playwright's own browser download is never used). Installs
# Debian's `chromium` package when /usr/bin/chromium is missing, saying so; CI runs as root on a fresh
# machine. Idempotent and free when present.

shelfmark_chromium() { # prints the browser's path on success
  local browser=/usr/bin/chromium
  if [[ -x $browser ]]; then
    echo "$browser"
    return 0
  fi
  if ! command -v apt-get >/dev/null; then
    echo "Cannot install Chromium for the console's browser test: no apt-get (install a Chromium and link it to $browser)" >&2
    return 1
  fi
  local sudo=()
  if [[ $(id -u) -ne 0 ]]; then
    if ! command -v sudo >/dev/null; then
      echo "Cannot install Chromium for the console's browser test: not root and no sudo (run: apt-get install -y chromium)" >&2
      return 1
    fi
    sudo=(sudo)
  fi
  echo "Installing Debian's chromium package for the console's browser test: apt-get update && apt-get install -y chromium" >&2
  if ! "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q >&2 ||
    ! "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends chromium >&2; then
    echo "Cannot install Chromium for the console's browser test: apt-get failed (see above; run: apt-get install -y chromium)" >&2
    return 1
  fi
  if [[ ! -x $browser ]]; then
    echo "Cannot find Chromium at $browser after installing Debian's chromium package" >&2
    return 1
  fi
  echo "$browser"
}
