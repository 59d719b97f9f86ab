#!/usr/bin/env bash
# Builds the release layout of .goreleaser.yml locally, without goreleaser, signing or publishing:
#   .build/dist/terraform-provider-kubefit_<version>_<os>_<arch>.zip  (binary terraform-provider-kubefit_v<version>)
#   .build/dist/terraform-provider-kubefit_<version>_manifest.json
#   .build/dist/terraform-provider-kubefit_<version>_SHA256SUMS
# for linux, darwin and windows on amd64 and arm64, with the same build flags as .goreleaser.yml.
# Usage: .ci/release-snapshot.sh [version]   (default 0.1.0-dev; `make release-snapshot` passes $(VERSION))
set -euo pipefail
cd "$(dirname "$0")/.."

name=terraform-provider-kubefit
version=${1:-0.1.0-dev}
version=${version#v}
dist=.build/dist
platforms="linux_amd64 linux_arm64 darwin_amd64 darwin_arm64 windows_amd64 windows_arm64"

zip_one() { # zip_one ARCHIVE FILE: FILE stored without directories
  if command -v zip >/dev/null 2>&1; then
    (cd "$(dirname "$2")" && zip -q -X "$OLDPWD/$1" "$(basename "$2")")
  elif command -v python3 >/dev/null 2>&1; then
    (cd "$(dirname "$2")" && python3 -m zipfile -c "$OLDPWD/$1" "$(basename "$2")")
  else
    echo "release-snapshot: needs zip or python3 to write the archives" >&2
    return 1
  fi
}

start=$(date +%s)
rm -rf "$dist"
mkdir -p "$dist"
# Like goreleaser's mod_timestamp: binaries carry the commit time, so rebuilding a commit gives the same zips.
stamp=$(git log -1 --format=%ct 2>/dev/null || date +%s)
for p in $platforms; do
  os=${p%_*} arch=${p#*_}
  ext=; [ "$os" = windows ] && ext=.exe
  bin=$dist/${name}_${os}_${arch}/${name}_v${version}${ext}
  echo "== $os/$arch"
  CGO_ENABLED=0 GOOS=$os GOARCH=$arch go build -trimpath -ldflags "-s -w -X main.version=$version" -o "$bin" .
  touch -d "@$stamp" "$bin"
  zip_one "$dist/${name}_${version}_${os}_${arch}.zip" "$bin"
done
cp terraform-registry-manifest.json "$dist/${name}_${version}_manifest.json"
(cd "$dist" && sha256sum ./*.zip ./*_manifest.json | sed 's#  \./#  #' > "${name}_${version}_SHA256SUMS")

echo "== $dist (built in $(($(date +%s) - start)) s; not signed, not published)"
(cd "$dist" && ls -1 ./*.zip ./*_manifest.json ./*_SHA256SUMS | sed 's#^\./#  #')
