#!/usr/bin/env bash
# Two whole `npm test` runs at once on the same PostgreSQL (and Redis), each in a worktree of HEAD
# of its own: the proof that test runs do not disturb each other. Takes about twice one run.
# Usage: scripts/test-side-by-side.sh   (exit 0 only when both runs pass)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/facility-ops-side-by-side-XXXXXX")
cleanup() {
  for side in a b; do git -C "$root" worktree remove --force "$work/$side" >/dev/null 2>&1 || true; done
  rm -rf "$work"
}
trap cleanup EXIT

for side in a b; do
  git worktree add --detach "$work/$side" HEAD >/dev/null
  # Hard links: the same installed packages, no second install.
  cp -al "$root/node_modules" "$work/$side/node_modules"
done

echo "two runs of npm test at $(git rev-parse --short HEAD), logs in $work/{a,b}.log"
pids=()
for side in a b; do
  (cd "$work/$side" && npm test >"$work/$side.log" 2>&1) &
  pids+=($!)
done
status=0
for i in 0 1; do
  side=$([ "$i" = 0 ] && echo a || echo b)
  if wait "${pids[$i]}"; then result=passed; else result=FAILED; status=1; fi
  echo "run $side $result: $(grep -E '^tests: ' "$work/$side.log" | tail -1)"
  [ "$result" = passed ] || grep -E '^\s+● ' "$work/$side.log" | sort -u | head -20
done
if [ "$status" != 0 ]; then
  trap - EXIT
  echo "logs kept in $work"
fi
exit "$status"
