#!/bin/sh
# Write tinyproxy's configuration and host filter from the environment, then run it in the foreground.
set -eu
umask 077
printf '%s\n' "${HAMMER_PROXY_CONFIG:?}" > /tmp/tinyproxy.conf
printf '%s\n' "${HAMMER_PROXY_FILTER:?}" > /tmp/filter
unset HAMMER_PROXY_CONFIG HAMMER_PROXY_FILTER
exec tinyproxy -d -c /tmp/tinyproxy.conf
