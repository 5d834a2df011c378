#!/usr/bin/env bash
# The package as a user gets it: `npm pack`, check the tarball holds only what a user needs, install
# it into a fresh prefix (production dependencies come from the registry), run the installed
# `newsstats` from outside the repository with a fresh home, then uninstall it.
#
#   npm run test:pack
#
# Leaves nothing behind: the tarball, the prefix and the home live in one temporary folder.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/newsstats-pack.XXXXXX")"
trap 'rm -rf "$work"' EXIT
fail() {
  echo "pack-test: $*" >&2
  exit 1
}

cd "$repo"
version="$(node -p 'require("./package.json").version')"
tarball="$work/newsstats-$version.tgz"

echo "== npm pack"
# pack runs prepare (the build) first, as it does for a user packing a clone.
npm pack --pack-destination "$work" --json > "$work/pack.json"
[ -f "$tarball" ] || fail "npm pack did not write $tarball"
node --input-type=module - "$work/pack.json" <<'NODE'
import { readFileSync } from 'node:fs';
const text = readFileSync(process.argv[2], 'utf8');
// Lifecycle banners may precede the JSON.
const [pack] = JSON.parse(text.slice(text.indexOf('[')));
const paths = pack.files.map((file) => file.path);
const allowed = /^(LICENSE|README\.md|package\.json|bin\/[^/]+|docs\/.+|dist\/.+)$/;
const unexpected = paths.filter((path) => !allowed.test(path) || /^dist\/(test|bench)\//.test(path));
const missing = ['LICENSE', 'README.md', 'package.json', 'bin/newsstats.cjs', 'dist/index.js', 'dist/cli/main.js']
  .filter((path) => !paths.includes(path));
if (unexpected.length > 0) throw new Error(`the tarball holds files a user does not need: ${unexpected.join(', ')}`);
if (missing.length > 0) throw new Error(`the tarball lacks: ${missing.join(', ')}`);
console.log(`${pack.filename}: ${paths.length} files, ${(pack.size / 1024).toFixed(1)} KiB packed, ${(pack.unpackedSize / 1024).toFixed(1)} KiB unpacked`);
NODE

echo "== npm install -g --prefix <fresh> $(basename "$tarball")"
prefix="$work/prefix"
npm install -g --prefix "$prefix" --no-audit --no-fund "$tarball" > "$work/install.log" 2>&1 || {
  cat "$work/install.log" >&2
  fail "installing the tarball failed"
}
installed="$prefix/lib/node_modules/newsstats"
[ -f "$installed/package.json" ] && [ ! -L "$installed" ] || fail "the tarball was not installed as a copy at $installed"

# Outside the repository, with a home and settings of its own: nothing of the clone can be used.
outside="$work/outside"
mkdir -p "$outside" "$work/home"
cd "$outside"
run() {
  env -u NEWSSTATS_API_KEY -u NEWSSTATS_BASE_URL -u NEWSSTATS_PROFILE \
    HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config" XDG_CACHE_HOME="$work/home/.cache" \
    PATH="$prefix/bin:$PATH" "$@"
}
[ "$(run sh -c 'command -v newsstats')" = "$prefix/bin/newsstats" ] || fail "newsstats is not on the PATH from $prefix/bin"

echo "== newsstats --version"
got_version="$(run newsstats --version)"
[ "$got_version" = "$version" ] || fail "newsstats --version printed '$got_version', expected '$version'"
echo "$got_version"

echo "== newsstats --sandbox people top --weeks last4 --limit 3 -f csv --fields rank,personHash"
rows="$(run newsstats --sandbox people top --weeks last4 --limit 3 -f csv --fields rank,personHash 2> "$work/stderr")"
echo "$rows"
# The header, then ranks 1 to 3 with a person hash each (the people depend on the sandbox's today).
printf '%s\n' "$rows" | awk -F, '
  NR == 1 { ok = ($0 == "rank,personHash"); next }
  { ok = ok && ($1 == NR - 1) && ($2 ~ /^[a-z]+(-[a-z]+)*-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]$/) }
  END { exit !(ok && NR == 4) }' || fail "unexpected rows from the installed newsstats"
grep -q 'synthetic' "$work/stderr" || fail "the sandbox note is missing from stderr"

echo "== the library from a project: import (ES module) and require (CommonJS)"
# dist/ is CommonJS (scripts/build.mjs); ES module users must still get every name.
project="$work/project"
mkdir -p "$project/node_modules"
ln -s "$installed" "$project/node_modules/newsstats"
cd "$project"
check='if (typeof NewsStatsClient !== "function" || typeof parseWeekSpec !== "function") throw new Error("names missing");'
run node --input-type=module -e "import { NewsStatsClient, parseWeekSpec } from 'newsstats'; $check console.log('import: ok')"
run node --input-type=commonjs -e "const { NewsStatsClient, parseWeekSpec } = require('newsstats'); $check console.log('require: ok')"
cd "$outside"

echo "== npm uninstall -g --prefix <fresh> newsstats"
npm uninstall -g --prefix "$prefix" --no-audit --no-fund newsstats > "$work/uninstall.log" 2>&1 || {
  cat "$work/uninstall.log" >&2
  fail "npm uninstall failed"
}
[ ! -e "$prefix/bin/newsstats" ] && [ ! -e "$installed" ] || fail "npm uninstall left newsstats behind"
echo "pack-test: ok"
