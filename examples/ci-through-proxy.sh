#!/usr/bin/env bash
# Runs a command (your end-to-end tests) with API set to a validating proxy in front of UPSTREAM,
# and fails when the command fails or when any answer through the proxy broke the document.
#
#   bash examples/ci-through-proxy.sh UPSTREAM_URL COMMAND [ARGS...]
#
# PROXY_PORT (default 4020), SPEC (default: the embedded Petstore document) and JUNIT change where
# it listens, what it checks against and where the JUnit file goes. Without JUNIT the file goes to a
# temporary folder, never the checkout npm runs this in: removed when every answer kept to the
# document, named on stderr when one did not. From an installed package, replace
# `node "$root/scripts/start.mjs"` with `npx petstore-mock-kit`.
set -u
upstream=$1
shift
port=${PROXY_PORT:-4020}
root=$(cd "$(dirname "$0")/.." && pwd)
scratch=
if [ -n "${JUNIT:-}" ]; then
  junit=$JUNIT
else
  scratch=$(mktemp -d)
  junit="$scratch/proxy-violations.xml"
fi
node "$root/scripts/start.mjs" proxy --upstream "$upstream" --port "$port" ${SPEC:+--spec "$SPEC"} \
  --fail-on-violation --junit "$junit" --log-level error &
proxy=$!
# Until it listens (or stops: a bad flag, a document it cannot read).
until (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do
  kill -0 "$proxy" 2>/dev/null || { wait "$proxy"; status=$?; [ -z "$scratch" ] || rm -rf "$scratch"; exit $status; }
  sleep 0.1
done
API="http://127.0.0.1:$port" "$@"
tests=$?
kill -TERM "$proxy"
wait "$proxy"
checked=$? # 1 when an answer broke the document (--fail-on-violation)
if [ "$checked" -ne 0 ]; then
  echo "ci-through-proxy: an answer broke the document; the violations: $junit" >&2
elif [ -n "$scratch" ]; then
  rm -rf "$scratch"
fi
[ "$tests" -eq 0 ] && [ "$checked" -eq 0 ]
