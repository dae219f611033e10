#!/usr/bin/env bash
# Looks up every key of keys.txt for node web01.example.com in this control
# repo, the way `puppet lookup --node web01.example.com --facts facts.yaml`
# would. Puppet's own answers for the same keys are in expected.json.
set -eu
cd "$(dirname "$0")"
bin=${HIERA_LOOKUP:-../target/release/hiera-lookup}
[ -x "$bin" ] || (cd .. && cargo build --release --quiet --bin hiera-lookup)
while read -r key; do
  set +e
  raw=$("$bin" --hiera_config hiera.yaml --environmentpath environments --environment production \
    --facts facts.yaml --node web01.example.com --render-as json "$key")
  status=$?
  value=$(printf '%s' "$raw" | tr -d '\n' | sed 's/  */ /g')
  set -e
  case $status in
    0) printf '%s => %s\n' "$key" "$value" ;;
    1) printf '%s => (not found)\n' "$key" ;;
    *) printf '%s => (error)\n' "$key"; exit 2 ;;
  esac
done < keys.txt
