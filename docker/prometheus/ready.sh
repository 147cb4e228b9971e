#!/bin/sh
# The monitoring profile's health check: Prometheus's readiness endpoint, with what the image
# has: wget in the official image (busybox), bash's /dev/tcp in the offline one (Debian's).
if command -v wget >/dev/null 2>&1; then
  exec wget -q -O /dev/null http://127.0.0.1:9090/-/ready
fi
exec bash -c "exec 3<>/dev/tcp/127.0.0.1/9090 && printf 'GET /-/ready HTTP/1.0\r\n\r\n' >&3 && head -c 12 <&3 | grep -q ' 200'"
