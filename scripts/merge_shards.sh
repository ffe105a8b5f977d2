#!/usr/bin/env bash
# Merge the shard folders of a sharded run into each submission's results folder, as the
# `refresh` workflow does after its matrix: for every submission, every
# SHARDS_DIR/*/<slug>/results/<label>/ is merged into submissions/<slug>/results/<label>/, for the
# labels of that date (`<date>` for movies, `<domain>-<date>` for another domain).
# `taurec merge` refuses mixed digests and exits 1 when a (task, trial) key is missing.
#
#   scripts/merge_shards.sh SNAPSHOT_DATE SHARDS_DIR
set -euo pipefail
if [[ $# -ne 2 ]]; then
  sed -n '2,7p' "$0" >&2
  exit 2
fi
date="$1" shards="$2"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
taurec="${TAUREC:-$root/.venv/bin/taurec}"
status=0
for entry in "$root"/submissions/*/; do
  [[ -f "$entry/submission.yaml" ]] || continue
  slug="$(basename "$entry")"
  mapfile -t labels < <(find "$shards" \( -path "*/$slug/results/$date" -o -path "*/$slug/results/*-$date" \) -type d -printf '%f\n' | sort -u)
  if [[ ${#labels[@]} -eq 0 ]]; then
    echo "no shard results for $slug" >&2
    status=1
    continue
  fi
  for label in "${labels[@]}"; do
    mapfile -t parts < <(find "$shards" -path "*/$slug/results/$label" -type d | sort)
    echo "== $slug ($label): merging ${#parts[@]} shard folder(s)"
    "$taurec" merge "${parts[@]}" --out "$entry/results/$label" || status=1
  done
done
exit "$status"
