#!/usr/bin/env bash
# scripts/web-deps.sh -- installs what the playground's browser test
# (tests/web/browser_test.mjs, `make web-test`, .ci/run's web stage) needs
# when it is missing: Debian's emscripten (emcc builds web/dist), chromium
# (+ chromium-driver; the headless browser, no download), nodejs and npm
# (playwright-core drives Chromium; `npm ci` in tests/web fetches it). Each
# is checked by its command, so a Node.js from elsewhere is kept. Not part
# of `make test`: several hundred MB for one test of the page, while the
# playground's logic (web/bridge.c) runs natively there (test_web_walk).
# Needs root (apt-get) only when something is missing.
#
#   scripts/web-deps.sh           install what is missing (quiet)
#   scripts/web-deps.sh --check   only say what is missing (exit 1 if anything)
set -euo pipefail

pkgs=()
command -v emcc >/dev/null || pkgs+=(emscripten)
[[ -x /usr/bin/chromium ]] || pkgs+=(chromium chromium-driver)
command -v node >/dev/null || pkgs+=(nodejs)
command -v npm >/dev/null || pkgs+=(npm)
if [[ ${#pkgs[@]} -eq 0 ]]; then
  echo "web packages: all installed (emcc, chromium, node, npm)"
  exit 0
fi
# What is missing by its command is then checked and installed by the
# step the other dependency scripts share.
exec "$(dirname "${BASH_SOURCE[0]}")/debian-packages.sh" web "${1:-}" "${pkgs[@]}"
