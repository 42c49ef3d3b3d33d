#!/bin/sh
# Builds a release anyone can download, into dist/VERSION/:
#   pbrain-tengen-VERSION-linux-x86_64        a static Linux executable (musl; runs on any x86-64 Linux)
#   pbrain-tengen-VERSION-windows-x86_64.exe  the Windows executable (its imports checked by scripts/check-imports.sh)
#   tengen-VERSION-gomocup-RULE.zip           a Gomocup submission per rule (freestyle, standard, renju, caro): the
#                                             executable named pbrain-tengen_RULE.exe, as the judge prefers it, and
#                                             the LICENSE
#   tengen-VERSION-gomocup.zip                one executable for every rule (pbrain-tengen.exe) and the LICENSE
#   LICENSE                                   the MIT licence the executables are given under
#   SHA256SUMS                                the checksums of all of the above
#   RELEASE-NOTES.md                          the version, the commit, what --version says, and the commits since
#                                             the previous release tag (every commit when there is none)
# Usage: scripts/release.sh VERSION   (for example 0.2.0; the tag vVERSION is not made here)
# Needs, once: rustup target add x86_64-unknown-linux-musl x86_64-pc-windows-gnu;
#              apt-get install gcc-mingw-w64-x86-64 zip
set -eu
cd "$(dirname "$0")/.."
fail() { echo "release failed: $*" >&2; exit 1; }
version=${1:-}
echo "$version" | grep -Eq '^[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.-]+)?$' || fail "usage: scripts/release.sh VERSION (like 0.2.0)"
cargo_version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
[ -f LICENSE ] || fail "LICENSE is missing"
[ "$cargo_version" = "$version" ] || fail "Cargo.toml says version $cargo_version: set version = \"$version\" there (and commit) first"
command -v zip >/dev/null || fail "zip is missing (apt-get install zip)"
command -v x86_64-w64-mingw32-gcc >/dev/null || fail "x86_64-w64-mingw32-gcc is missing (apt-get install gcc-mingw-w64-x86-64)"
rustup target list --installed | grep -qx x86_64-unknown-linux-musl || fail "rustup target add x86_64-unknown-linux-musl"
rustup target list --installed | grep -qx x86_64-pc-windows-gnu || fail "rustup target add x86_64-pc-windows-gnu"
commit=$(git rev-parse --short=12 HEAD)
[ -z "$(git status --porcelain --untracked-files=no)" ] || { commit="$commit+"; echo "note: the work tree has changes; the build is marked $commit"; }
export TENGEN_COMMIT="$commit"
out="dist/$version"
root=$(pwd)
rm -rf "$out"
mkdir -p "$out"
cp LICENSE "$out/LICENSE"

echo "building the Linux executable (static, musl)"
cargo build --release --quiet --target x86_64-unknown-linux-musl
linux="pbrain-tengen-$version-linux-x86_64"
cp target/x86_64-unknown-linux-musl/release/pbrain-tengen "$out/$linux"
if file "$out/$linux" 2>/dev/null | grep -q "dynamically linked"; then fail "$linux is not static"; fi

echo "building the Windows executable"
cargo build --release --quiet --target x86_64-pc-windows-gnu
exe=target/x86_64-pc-windows-gnu/release/pbrain-tengen.exe
scripts/check-imports.sh "$exe"
windows="pbrain-tengen-$version-windows-x86_64.exe"
cp "$exe" "$out/$windows"

echo "packing the Gomocup zips"
for rule in "" freestyle standard renju caro; do
    if [ -n "$rule" ]; then name="pbrain-tengen_$rule.exe"; zip="tengen-$version-gomocup-$rule.zip"
    else name="pbrain-tengen.exe"; zip="tengen-$version-gomocup.zip"; fi
    tmp=$(mktemp -d)
    cp "$exe" "$tmp/$name"
    cp LICENSE "$tmp/LICENSE"
    (cd "$tmp" && zip -q -X "$root/$out/$zip" "$name" LICENSE)
    rm -rf "$tmp"
done

echo "writing the release notes"
previous=$(git describe --tags --abbrev=0 --match 'v*' 2>/dev/null || true)
range=${previous:+$previous..}HEAD
{
    echo "# Tengen $version"
    echo
    echo "Built from commit $commit on $(date -u +%Y-%m-%d)."
    echo
    echo '```'
    "$out/$linux" --version
    echo '```'
    echo
    echo "Files: \`$linux\` (Linux, x86-64, static), \`$windows\` (Windows), the Gomocup zips (one per rule, and one"
    echo "for every rule; each holds the LICENSE), \`LICENSE\` (MIT) and \`SHA256SUMS\`. Load the executable in Piskvork or Yixin-Board as the engine; run"
    echo "\`$linux play\` for a game in the terminal or \`$linux serve\` for the browser board."
    echo
    if [ -n "$previous" ]; then echo "## Changes since $previous"; else echo "## Changes"; fi
    echo
    git log --no-merges --pretty='- %s (%h)' "$range" | cut -c1-200
} > "$out/RELEASE-NOTES.md"

(cd "$out" && sha256sum "$linux" "$windows" tengen-*.zip LICENSE > SHA256SUMS && sha256sum --check --quiet SHA256SUMS)
echo "release $version in $out:"
ls -l "$out" | tail -n +2 | awk '{ printf "  %10d  %s\n", $5, $9 }'
