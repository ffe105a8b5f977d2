#!/usr/bin/env bash
# Run shard I of N of every submission against one snapshot, as the `refresh` workflow's matrix
# does. Entries whose LiteLLM api_base is on this machine (e.g. heuristic-via-litellm) need the
# local model server, so it is started on 127.0.0.1:$TAUREC_MODEL_PORT (default 8765, the shipped
# entry's port) for the duration of the run.
#
#   scripts/run_shard.sh SNAPSHOT_DATE I N OUT_DIR [extra `taurec run` options, e.g. --max-cost 10]
#
# Results land in OUT_DIR/<slug>/results/<date>/; merge them with scripts/merge_shards.sh.
set -euo pipefail
if [[ $# -lt 4 ]]; then
  sed -n '2,9p' "$0" >&2
  exit 2
fi
date="$1" index="$2" count="$3" out="$4"
shift 4
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
taurec="${TAUREC:-$root/.venv/bin/taurec}"
# The api_base port of the loopback entries (submissions/heuristic-via-litellm says 8765).
port="${TAUREC_MODEL_PORT:-8765}"
export LITELLM_LOCAL_MODEL_COST_MAP=True
# On hosted runs (TAUREC_HOSTED=1) loopback and private hosts are refused, except this server.
export TAUREC_OWN_MODEL_SERVER="127.0.0.1:$port"

mkdir -p "$out"
log="$(mktemp)"
"$taurec" serve-model --host 127.0.0.1 --port "$port" >/dev/null 2>"$log" &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -f "$log"' EXIT
# Up to 60 s: on a loaded machine the server's imports alone take seconds, and the run's
# preflight makes one request to it before any trial.
for _ in $(seq 600); do
  if curl -fsS "http://127.0.0.1:$port/v1/models" >/dev/null 2>&1; then break; fi
  if ! kill -0 "$server" 2>/dev/null; then
    echo "the model server did not start (port $port in use?):" >&2
    cat "$log" >&2
    exit 1
  fi
  sleep 0.1
done

mapfile -t entries < <(find "$root/submissions" -mindepth 2 -maxdepth 2 -name submission.yaml -printf '%h\n' | sort)
if [[ -z "${TAUREC_SECRETS:-}" ]]; then
  "$taurec" run "${entries[@]}" --snapshot "$date" --shard "$index/$count" --out "$out" "$@"
  exit 0
fi
# Hosted (the refresh workflow passes every secret as one JSON map): one process per entry, each
# seeing only the secrets the key table allows it (`taurec submission env`).
for entry in "${entries[@]}"; do
  "$taurec" submission env --secrets-json-env TAUREC_SECRETS "$entry" \
    "$taurec" run "$entry" --snapshot "$date" --shard "$index/$count" --out "$out" "$@"
done
