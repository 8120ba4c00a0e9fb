# scripts/emcc-env.sh -- sourced by the Emscripten builds (web/build.sh,
# js/scripts/build.sh) before they run emcc.
#
# Debian's emscripten runs its JS optimizer with the system node, which finds
# the `acorn` module only through NODE_PATH (node may come from elsewhere,
# e.g. NodeSource, whose search path does not include Debian's folder).
for dir in /usr/share/nodejs /usr/lib/nodejs /usr/lib/node_modules; do
  if [[ -d $dir/acorn ]]; then
    export NODE_PATH=$dir${NODE_PATH:+:$NODE_PATH}
    break
  fi
done
