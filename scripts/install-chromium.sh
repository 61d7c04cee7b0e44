#!/usr/bin/env bash
# Installs what the browser test (tests/gui_browser.rs) needs: Debian's
# Chromium and its WebDriver, /usr/bin/chromium and /usr/bin/chromedriver.
# Does nothing when both are there. Needs root (or sudo) and Debian's apt.
set -euo pipefail
if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
  exit 0
fi
sudo=""
if [ "$(id -u)" != 0 ]; then
  sudo=sudo
fi
$sudo apt-get update
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y chromium chromium-driver
