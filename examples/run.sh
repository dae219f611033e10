#!/usr/bin/env bash
# Looks up every key of keys.txt for node web01.example.com in this control repo.
set -eu
cd "$(dirname "$0")"
bin=${HIERA_LOOKUP:-../target/release/hiera-lookup}
while read -r key; do
  printf '%s => ' "$key"
  "$bin" --hiera_config hiera.yaml --environmentpath environments --environment production \
    --facts facts.yaml --node web01.example.com --render-as json "$key" | tr -d '\n' | sed 's/  */ /g'
  echo
done < keys.txt
