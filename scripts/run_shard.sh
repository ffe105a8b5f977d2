#!/usr/bin/env bash
# Run shard I of N of every submission against one snapshot, as the `refresh` workflow's matrix
# does. Entries whose LiteLLM api_base is loopback port 0 (heuristic-via-litellm) are served by a
# model server each `taurec run` starts on a free port (runner/models/own_model_server.py): no fixed port.
#
#   scripts/run_shard.sh SNAPSHOT_DATE I N OUT_DIR [extra `taurec run` options, e.g. --max-cost 10]
#
# With `--domain NAME` among the options only the entries entering that domain run (their
# `domains`), on its snapshot. Results land in OUT_DIR/<slug>/results/<label>/ (the label is the
# date, `<domain>-<date>` for a domain other than movies); merge them with scripts/merge_shards.sh.
set -euo pipefail
if [[ $# -lt 4 ]]; then
  sed -n '2,12p' "$0" >&2
  exit 2
fi
date="$1" index="$2" count="$3" out="$4"
shift 4
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
taurec="${TAUREC:-$root/.venv/bin/taurec}"
export LITELLM_LOCAL_MODEL_COST_MAP=True

domain=movies
options=("$@")
for ((i = 0; i < ${#options[@]}; i++)); do
  if [[ "${options[$i]}" == --domain ]]; then domain="${options[$((i + 1))]}"; fi
done
python="$(dirname "$taurec")/python"

mkdir -p "$out"
mapfile -t all < <(find "$root/submissions" -mindepth 2 -maxdepth 2 -name submission.yaml -printf '%h\n' | sort)
mapfile -t entries < <("$python" -c 'import sys
from pathlib import Path
from runner.publish.leaderboard import entrants
print("\n".join(str(p) for p in entrants([Path(a) for a in sys.argv[2:]], sys.argv[1])))' "$domain" "${all[@]}")
if [[ ${#entries[@]} -eq 0 || -z "${entries[0]}" ]]; then
  echo "no submission enters the $domain domain" >&2
  exit 0
fi
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
