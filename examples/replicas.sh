#!/usr/bin/env bash
# Two replicas of the mock sharing one state in PostgreSQL, behind a round-robin balancer, on one
# machine; runs a command (your tests) with API set to the balancer, then stops them all.
#
#   bash examples/replicas.sh DATABASE_URL COMMAND [ARGS...]
#
# REPLICA_PORTS (default "4011 4012") and BALANCER_PORT (default 4030) change where they listen;
# NAMESPACE (default: replicas-demo) names the state in the database. From an installed package,
# replace `node "$root/scripts/start.mjs"` with `npx petstore-mock-kit`. docs/replicas.md explains it.
set -u
database=$1
shift
root=$(cd "$(dirname "$0")/.." && pwd)
ports=${REPLICA_PORTS:-4011 4012}
balancer_port=${BALANCER_PORT:-4030}
pids=()
stop() { kill -TERM "${pids[@]}" 2>/dev/null; wait "${pids[@]}" 2>/dev/null; }
trap stop EXIT
# Until it listens, or stops (a database it cannot use says why in one line, and exits).
wait_for() {
  until (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; do
    kill -0 "$2" 2>/dev/null || { wait "$2"; exit $?; }
    sleep 0.1
  done
}
urls=()
for port in $ports; do
  node "$root/scripts/start.mjs" --store "$database" --store-namespace "${NAMESPACE:-replicas-demo}" --port "$port" --log-level error &
  pids+=($!)
  # One after the other: the first seeds the namespace, the next finds it seeded and loads it.
  wait_for "$port" "$!"
  urls+=("http://127.0.0.1:$port")
done
node "$root/examples/balancer.mjs" "$balancer_port" "${urls[@]}" >/dev/null &
pids+=($!)
wait_for "$balancer_port" "$!"
API="http://127.0.0.1:$balancer_port" "$@"
