#!/bin/sh
# The monitoring profile's entry point: writes the configuration from the template with the
# admin's credentials (from the environment, as every service gets them), checks it with
# promtool, then runs Prometheus on it with the arguments given.
set -eu

: "${ADMIN_USER:?ADMIN_USER is not set}"
: "${ADMIN_PASSWORD:?ADMIN_PASSWORD is not set}"
template=/etc/prometheus/radio/prometheus.yml.template
config=/tmp/prometheus.yml

# Single-quoted YAML scalars: a quote inside is doubled, nothing else is special. awk reads the
# values from its environment and splices them in with substr (gsub would read & and \ in them),
# so no character of a password can break the substitution.
umask 077
awk '
  function quoted(value) { gsub(/\047/, "\047\047", value); return "\047" value "\047" }
  function replace(line, key, value,    out, at) {
    out = ""
    while ((at = index(line, key)) > 0) {
      out = out substr(line, 1, at - 1) value
      line = substr(line, at + length(key))
    }
    return out line
  }
  {
    line = replace($0, "ADMIN_USER_YAML", quoted(ENVIRON["ADMIN_USER"]))
    print replace(line, "ADMIN_PASSWORD_YAML", quoted(ENVIRON["ADMIN_PASSWORD"]))
  }
' "$template" >"$config"
promtool check config "$config" >/dev/null

exec prometheus --config.file="$config" "$@"
