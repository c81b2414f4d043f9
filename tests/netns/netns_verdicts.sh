# shellcheck shell=bash
# shellcheck disable=SC2154  # log_tag: set by the sourcing script
# How the namespace tests (tests/netns/*_netns_test.sh) log, skip and fail.
# The sourcing script sets log_tag (its log lines' prefix) first. A skip
# exits 77 (ctest's SKIP_RETURN_CODE); TRESTLE_NETNS_REQUIRED=1 (CI) makes
# it a failure.

readonly kSkipCode=77

log() { printf '[%s %(%H:%M:%S)T] %s\n' "$log_tag" -1 "$*"; }

skip() {
  if [[ ${TRESTLE_NETNS_REQUIRED:-0} == 1 ]]; then
    echo "FAIL: cannot run (TRESTLE_NETNS_REQUIRED=1): $*" >&2
    exit 1
  fi
  echo "SKIP: $*"
  exit "$kSkipCode"
}

fail() {
  echo "FAIL: $*" >&2
  exit 1
}
