#!/usr/bin/env node
// A salad bot in Node, with no dependencies: it always plays its lowest legal card.
//
//   salad match --bots "cmd:node examples/bots/lowest.js,basic,basic,basic" --deals 10
//
// Protocol 1 (docs/external-bots.md): one JSON object per line on stdin; answer "ready" to
// "hello" and one move per "move" request on stdout; every other message needs no answer.
// Anything for humans goes to stderr.

"use strict";

const readline = require("readline");

const PROTOCOL = 1;
let rankOf = new Map(); // rank letter -> position, low to high (from the ruleset)

function send(line) {
  process.stdout.write(line + "\n");
}

// A card code is a rank then a suit letter ("QS", "10H" is "TH"); Wilds have their own code.
function rank(code) {
  for (let len = code.length - 1; len > 0; len--) {
    const r = rankOf.get(code.slice(0, len));
    if (r !== undefined) return r;
  }
  return -1; // a Wild: played low, it ranks below everything
}

function choose(msg) {
  const legal = msg.legal.filter((m) => !m.endsWith("+")); // never declare a Wild high
  const phase = msg.view.phase;
  if (phase === "trump") return msg.legal[0]; // "trump:X": any suit will do
  const byRank = [...(legal.length ? legal : msg.legal)].sort((a, b) => rank(a) - rank(b));
  if (phase === "pass") return byRank[byRank.length - 1]; // pass the highest card
  return byRank[0];
}

const rl = readline.createInterface({ input: process.stdin, terminal: false });

rl.on("line", (line) => {
  if (!line.trim()) return;
  const msg = JSON.parse(line);
  switch (msg.type) {
    case "hello":
      if (msg.protocol !== PROTOCOL) console.error(`lowest.js: protocol ${msg.protocol}?`);
      send(JSON.stringify({ type: "ready", name: "lowest.js", protocol: PROTOCOL }));
      break;
    case "game":
      rankOf = new Map(msg.ruleset.deck.ranks.map((r, i) => [r.letter, i]));
      break;
    case "move":
      send(JSON.stringify({ id: msg.id, move: choose(msg) }));
      break;
    case "bye":
      rl.close();
      break;
    default: // hand_end, game_end, error and anything newer: nothing to answer
      break;
  }
});

rl.on("close", () => process.exit(0));
