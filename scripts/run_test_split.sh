#!/usr/bin/env bash
# Score every submission on the private test split of each domain it enters, as the `refresh`
# workflow's record job does (runner/publish/splits.py: the split is drawn from
# TAUREC_SPLIT_SECRET and the snapshot date; only splits/<domain>/live/split.json (aggregates) and
# results.fernet (encrypted) are written, the clear working copy stays in .taurec-cache/).
#
#   scripts/run_test_split.sh SNAPSHOT_DATE [extra `taurec leaderboard` options, e.g. --max-cost 10]
#
# Hosted (TAUREC_SECRETS holds every secret as one JSON map): one process per entry, each seeing
# only the secrets the key table allows it (`taurec submission env`), as scripts/run_shard.sh runs
# the dev split; each process adds its entry's figures to the live split record.
set -euo pipefail
if [[ $# -lt 1 ]]; then
  sed -n '2,11p' "$0" >&2
  exit 2
fi
date="$1"
shift 1
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
taurec="${TAUREC:-$root/.venv/bin/taurec}"
export LITELLM_LOCAL_MODEL_COST_MAP=True

if [[ -z "${TAUREC_SPLIT_SECRET:-}" ]]; then
  echo "TAUREC_SPLIT_SECRET is not set: refusing to draw a test split (a board needs the private split)" >&2
  exit 1
fi
if [[ -z "${TAUREC_SECRETS:-}" ]]; then
  "$taurec" leaderboard --steps test --date "$date" "$@"
  exit 0
fi
mapfile -t entries < <(find "$root/submissions" -mindepth 2 -maxdepth 2 -name submission.yaml -printf '%h\n' | sort)
for entry in "${entries[@]}"; do
  "$taurec" submission env --secrets-json-env TAUREC_SECRETS "$entry" \
    "$taurec" leaderboard --steps test --date "$date" --entry "$entry" "$@"
done
