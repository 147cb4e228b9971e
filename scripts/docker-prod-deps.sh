#!/bin/sh
# Used by services/*/Dockerfile, in the workspace copy of a build stage (manifests and lockfile,
# the store filled by `pnpm fetch`): installs the production dependencies with no network, then
# removes everything one service does not run, so that its image ships only that.
#
# pnpm cannot do this alone here. `pnpm --filter <svc>... install --prod` still installs every
# project (the workspace root depends on all of them), and `pnpm deploy` copies the workspace
# packages into node_modules, where Node refuses to strip TypeScript types: our packages are
# consumed as their src/*.ts. So: a normal install, then a prune to the dependency trees that
# `pnpm ls` reports for the service.
#
# Usage: scripts/docker-prod-deps.sh <project> [<runtime dependency>...]
#   <project>               the service, e.g. @radio/stream; it keeps its workspace dependencies
#   <runtime dependency>... when given, only these (and their trees) are kept for <project>:
#                           the web server runs on @radio/core alone, while vite and react,
#                           among its dependencies, only build the app.
set -eu

if [ $# -lt 1 ]; then
  echo "usage: $0 <project> [<runtime dependency>...]" >&2
  exit 2
fi
project=$1
shift
roots=${*:-$project}
here=$(pwd)

pnpm install --offline --frozen-lockfile --prod --no-optional --reporter=append-only

projects=$(mktemp)
keep=$(mktemp)
pnpm ls --filter "$project" --depth -1 --parseable >"$projects"
for root in $roots; do
  pnpm ls --filter-prod "$root..." --depth -1 --parseable >>"$projects"
  pnpm ls --filter-prod "$root..." --prod --depth Infinity --parseable | grep '/node_modules/\.pnpm/' >>"$keep" || true
done

# Other workspace projects (here only their manifests and node_modules).
pnpm ls -r --depth -1 --parseable | while read -r dir; do
  if [ "$dir" != "$here" ] && ! grep -qxF "$dir" "$projects"; then rm -rf "$dir"; fi
done
# Packages of the virtual store outside the kept trees.
for entry in node_modules/.pnpm/*/; do
  name=$(basename "$entry")
  [ "$name" = node_modules ] && continue
  grep -qF "/node_modules/.pnpm/$name/" "$keep" || rm -rf "$entry"
done
# Links into what was removed, command shims, and the folders left empty.
find . -name .bin -type d -prune -exec rm -rf {} +
find . -xtype l -delete
find . -mindepth 1 -type d -empty -delete
rm -f "$projects" "$keep"

left=$(pnpm ls -r --depth -1 --parseable | sed "s|^$here/*||" | grep . | tr '\n' ' ')
echo "$project: kept projects ${left% }, $(find node_modules/.pnpm -mindepth 1 -maxdepth 1 -type d ! -name node_modules | wc -l) packages, $(du -sh node_modules | cut -f1) in node_modules"
