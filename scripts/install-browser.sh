#!/usr/bin/env bash
# Installs what the browser tests (tests/browser.rs) need: Debian's Chromium
# and its WebDriver. Nothing is downloaded outside the Debian archive.
set -euo pipefail
if command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; then
    echo "install-browser: $(chromium --version 2>/dev/null || echo chromium) already installed"
    exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "install-browser: need root for apt-get (or install chromium and chromium-driver yourself)" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends chromium chromium-driver >/dev/null
echo "install-browser: $(chromium --version 2>/dev/null)"
