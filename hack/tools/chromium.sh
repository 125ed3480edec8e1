#!/usr/bin/env bash
# Debian's Chromium and ChromeDriver, for the dashboard's browser test (DashboardIT). Installed by
# ./mvnw verify before the integration tests; a no-op when both are there.
#   hack/tools/chromium.sh          install if missing, print the versions
set -euo pipefail
source "$(dirname "$0")/../cluster/lib.sh"
if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
  apt_install chromium chromium-driver
fi
/usr/bin/chromium --version 2>/dev/null | head -1 || die "chromium does not start. Fix: apt-get install --reinstall chromium"
/usr/bin/chromedriver --version | head -1
