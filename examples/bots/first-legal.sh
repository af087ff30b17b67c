#!/usr/bin/env bash
# A salad bot in plain bash (no jq): it plays the first legal move it is offered.
#
#   salad match --bots "cmd:examples/bots/first-legal.sh,random,random,random" --deals 1
#
# Protocol 1 (docs/external-bots.md): salad writes one JSON object per line, compact (no spaces
# around : and ,); answer "ready" to "hello" and one move per "move" request. A move request
# lists the legal moves as "legal":["2C","5C",...], so the first one is the text between the
# first "legal":[" and the next quote.

while IFS= read -r line; do
  case "$line" in
    *'"type":"hello"'*)
      echo ready
      ;;
    *'"type":"move"'*)
      rest=${line#*'"legal":["'}
      echo "${rest%%'"'*}"
      ;;
    *'"type":"bye"'*)
      exit 0
      ;;
  esac
done
