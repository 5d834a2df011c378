#!/usr/bin/env bash
# The package as a user gets it: `npm pack`, check the tarball holds only what a user needs and that
# its types and exports are right (attw, publint), install it into a fresh prefix (production
# dependencies come from the registry), measure the install against the budget below, run the
# installed `newsstats` from outside the repository with a fresh home, then uninstall it.
#
#   npm run test:pack
#
# The install budget (README, "Install"): a global install adds at most MAX_PACKAGES packages (newsstats
# and its dependencies) and MAX_MB megabytes, and takes under MAX_SECONDS on a warm npm cache (a first,
# untimed install into another prefix warms it). The time is the quickest of three installs into
# fresh prefixes: on a busy machine one install can take several times as long as the next.
MAX_PACKAGES=15
MAX_MB=15
MAX_SECONDS=10
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
const missing = ['LICENSE', 'README.md', 'package.json', 'bin/newsstats.cjs', 'dist/cli/main.js', 'dist/esm/index.js', 'dist/esm/index.d.ts', 'dist/cjs/index.js', 'dist/cjs/index.d.ts', 'dist/THIRD-PARTY-NOTICES.md']
  .filter((path) => !paths.includes(path));
if (unexpected.length > 0) throw new Error(`the tarball holds files a user does not need: ${unexpected.join(', ')}`);
if (missing.length > 0) throw new Error(`the tarball lacks: ${missing.join(', ')}`);
console.log(`${pack.filename}: ${paths.length} files, ${(pack.size / 1024).toFixed(1)} KiB packed, ${(pack.unpackedSize / 1024).toFixed(1)} KiB unpacked`);
NODE

echo "== the types and the exports map: attw, publint"
# node16 profile: every resolution a current TypeScript uses; the node10 one predates "exports" and
# cannot see the newsstats/sandbox subpath.
"$repo/node_modules/.bin/attw" --profile node16 --no-color --format table-flipped "$tarball" || fail "attw found problems with the types"
"$repo/node_modules/.bin/publint" run --strict "$tarball" || fail "publint found problems"

echo "== npm install -g --prefix <fresh> $(basename "$tarball")"
npm install -g --prefix "$work/warm" --no-audit --no-fund "$tarball" > "$work/warm.log" 2>&1 || {
  cat "$work/warm.log" >&2
  fail "installing the tarball failed"
}
times_ns=()
for attempt in 1 2 3; do
  prefix="$work/prefix$attempt"
  started="$(date +%s%N)"
  npm install -g --prefix "$prefix" --no-audit --no-fund "$tarball" > "$work/install.log" 2>&1 || {
    cat "$work/install.log" >&2
    fail "installing the tarball failed"
  }
  times_ns+=("$(($(date +%s%N) - started))")
done
quickest_ns="$(printf '%s\n' "${times_ns[@]}" | sort -n | head -1)"
installed="$prefix/lib/node_modules/newsstats"
[ -f "$installed/package.json" ] && [ ! -L "$installed" ] || fail "the tarball was not installed as a copy at $installed"
# Packages: newsstats and every folder with a package.json directly under a node_modules in it.
packages=0
if [ -d "$installed/node_modules" ]; then
  packages="$(find "$installed/node_modules" -name package.json | grep -Ec '/node_modules/(@[^/]+/)?[^/@]+/package\.json$' || true)"
fi
packages=$((packages + 1))
kib="$(du -sk "$prefix" | cut -f1)"
read -r mb seconds < <(awk -v kib="$kib" -v ns="$quickest_ns" 'BEGIN { printf "%.1f %.1f\n", kib / 1024, ns / 1e9 }')
all_seconds="$(printf '%s\n' "${times_ns[@]}" | awk '{ printf "%s%.1f", (NR > 1 ? ", " : ""), $1 / 1e9 }')"
echo "install: $packages packages, $mb MB, $seconds s (quickest of $all_seconds) (budget: $MAX_PACKAGES packages, $MAX_MB MB, $MAX_SECONDS s)"
[ "$packages" -le "$MAX_PACKAGES" ] || fail "the install adds $packages packages, more than $MAX_PACKAGES"
awk -v mb="$mb" -v max="$MAX_MB" 'BEGIN { exit !(mb <= max) }' || fail "the install takes $mb MB, more than $MAX_MB"
awk -v s="$seconds" -v max="$MAX_SECONDS" 'BEGIN { exit !(s < max) }' || fail "the install took $seconds s, not under $MAX_SECONDS"

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

echo "== newsstats --sandbox people top -f xlsx, without exceljs (an optional peer, not installed)"
xlsx_status=0
run newsstats --sandbox people top --weeks last4 --limit 3 -f xlsx -o top.xlsx 2> "$work/stderr" || xlsx_status=$?
cat "$work/stderr"
[ "$xlsx_status" -eq 2 ] || fail "-f xlsx without exceljs exited $xlsx_status, expected 2 (usage)"
grep -q 'npm install -g exceljs@' "$work/stderr" || fail "-f xlsx without exceljs does not say how to install it"
[ ! -e top.xlsx ] || fail "-f xlsx without exceljs left top.xlsx behind"

echo "== the library from a project: import (ES module) and require (CommonJS)"
# import gets dist/esm, require gets dist/cjs (package.json "exports"); both must give every name.
project="$work/project"
mkdir -p "$project/node_modules"
ln -s "$installed" "$project/node_modules/newsstats"
cd "$project"
check='if (typeof NewsStatsClient !== "function" || typeof parseWeekSpec !== "function") throw new Error("names missing");'
run node --input-type=module -e "import { NewsStatsClient, parseWeekSpec } from 'newsstats'; $check console.log('import: ok')"
run node --input-type=commonjs -e "const { NewsStatsClient, parseWeekSpec } = require('newsstats'); $check console.log('require: ok')"
sandbox_check='if (typeof startSandbox !== "function") throw new Error("startSandbox missing");'
run node --input-type=module -e "import { startSandbox } from 'newsstats/sandbox'; $sandbox_check console.log('import newsstats/sandbox: ok')"
run node --input-type=commonjs -e "const { startSandbox } = require('newsstats/sandbox'); $sandbox_check console.log('require newsstats/sandbox: ok')"
cd "$outside"

echo "== npm uninstall -g --prefix <fresh> newsstats"
npm uninstall -g --prefix "$prefix" --no-audit --no-fund newsstats > "$work/uninstall.log" 2>&1 || {
  cat "$work/uninstall.log" >&2
  fail "npm uninstall failed"
}
[ ! -e "$prefix/bin/newsstats" ] && [ ! -e "$installed" ] || fail "npm uninstall left newsstats behind"
echo "pack-test: ok"
