#!/usr/bin/env bash
# Refuses a release while the project's public address is still the OWNER placeholder.
#
# Usage: CI/check-release.sh   (exit 0: ready; exit 1: what is missing is printed)
#   The address lives in one constant, ProjectHome.url (Sources/CanaryTrap/Report/ProjectHome.swift);
#   README.md's `.package(url:)` must be that address plus `.git` (SARIFReportTests checks it too).
#   SARIF logs leave `informationUri` out while the constant is a placeholder.
set -euo pipefail
cd "$(dirname "$0")/.."
url=$(sed -n 's/^ *package static let url = "\(.*\)"$/\1/p' Sources/CanaryTrap/Report/ProjectHome.swift)
status=0
if [ -z "$url" ]; then
  echo "check-release: cannot read ProjectHome.url" >&2; exit 1
fi
if [[ "$url" == */OWNER/* ]]; then
  echo "check-release: ProjectHome.url is the placeholder $url; set the project's public address" >&2
  status=1
fi
if ! grep -qF ".package(url: \"$url.git\"" README.md; then
  echo "check-release: README.md's .package(url:) is not $url.git" >&2
  status=1
fi
if grep -rqF "github.com/OWNER/" README.md Sources CI/github CI/gitlab; then
  echo "check-release: the OWNER placeholder is still written in:" >&2
  grep -rlF "github.com/OWNER/" README.md Sources CI/github CI/gitlab >&2
  status=1
fi
[ $status -eq 0 ] && echo "check-release: ProjectHome.url is $url"
exit $status
