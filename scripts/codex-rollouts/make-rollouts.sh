#!/bin/sh
# Makes the genuine Codex CLI rollouts in fixtures/transcripts/real/codex-0.169-*.jsonl: the real
# Codex CLI (npm i --prefix /tmp/codex @openai/codex) runs each scenario against
# responses-stand-in.mjs, offline. The model's turns are scripted; everything else (the tools run,
# their output, the rollout file) is Codex's own. Then trim them as SOURCES.md says.
#   scripts/codex-rollouts/make-rollouts.sh [CODEX_BIN]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
codex=${1:-/tmp/codex/node_modules/.bin/codex}
work=$(mktemp -d)
port=47811
mkdir -p "$work/home"
cat > "$work/home/config.toml" <<TOML
model = "gpt-5.5"
model_provider = "standin"
approval_policy = "never"
sandbox_mode = "danger-full-access"

[model_providers.standin]
name = "standin"
base_url = "http://127.0.0.1:$port/v1"
wire_api = "responses"

[tools.update_plan]
enabled = true
TOML

run() { # scenario, then the prompts (a second prompt resumes the session)
  scenario=$1; shift
  node "$here/responses-stand-in.mjs" "$port" "$here/$scenario.json" & server=$!
  sleep 1
  ( cd "$work/$scenario" && CODEX_HOME="$work/home" "$codex" exec --skip-git-repo-check "$1" )
  if [ $# -gt 1 ]; then ( cd "$work/$scenario" && CODEX_HOME="$work/home" "$codex" exec --skip-git-repo-check resume --last "$2" ); fi
  kill "$server"
  ls -t "$work"/home/sessions/*/*/*/*.jsonl | head -1
}

mkdir -p "$work/move-config" && cd "$work/move-config" && git init -q
printf 'module.exports = { port: 8080 };\n' > config.js
printf "const assert = require('assert');\nconst { port } = require('./lib/config');\nassert.strictEqual(port, 8081);\n" > test.js
printf '# app\nThe server listens on 8081.\n' > README.md
run move-config "Move the config loader into lib/ and make the port configurable"

mkdir -p "$work/resumed" && cd "$work/resumed" && git init -q
run resumed "Write a tiny tokenizer and printer and publish them" "continue with the printer"
