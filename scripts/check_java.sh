#!/usr/bin/env bash
# Spark needs Java 17. Say so plainly when it is missing, and install it where
# we can (Debian/Ubuntu as root).
set -uo pipefail
if java -version >/dev/null 2>&1; then
    exit 0
fi
echo "Java was not found: Spark (PySpark) needs a Java 17 runtime." >&2
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "==> installing openjdk-17-jre-headless with apt-get" >&2
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openjdk-17-jre-headless >/dev/null
    if java -version >/dev/null 2>&1; then
        exit 0
    fi
fi
echo "Install it and run the command again, for example:" >&2
echo "    sudo apt-get install -y openjdk-17-jre-headless      (Debian, Ubuntu)" >&2
echo "    brew install openjdk@17                              (macOS)" >&2
exit 1
