#!/usr/bin/env bash
# Smoke-run submission folders exactly as the `submission` workflow does on a PR:
# `taurec submission check` first, then 3 tasks × 1 trial each with the scripted simulator,
# against each entry's own endpoint or model when it answers, else on a local stand-in (the
# model server, or an http endpoint with the heuristic policy), marked `stand-in`, not `passed`.
#
#   scripts/smoke_submission.sh submissions/my-agent            # one or more folders
#   scripts/smoke_submission.sh --changed-files changed-paths    # folders a diff touches
#
# Extra options go to `taurec submission smoke` (see `taurec submission smoke --help`).
# The markdown summary is printed, and appended to $SMOKE_SUMMARY when that is set.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
taurec="${TAUREC:-$here/../.venv/bin/taurec}"
export LITELLM_LOCAL_MODEL_COST_MAP=True
args=(submission smoke --tasks 3 --trials 1)
if [[ -n "${SMOKE_SUMMARY:-}" ]]; then
  args+=(--summary "$SMOKE_SUMMARY")
fi
exec "$taurec" "${args[@]}" "$@"
