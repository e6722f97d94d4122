#!/usr/bin/env bash
# Runs one of the README's two commands (demo or test) on another Debian release, in a root made
# with debootstrap from Debian's packages (as root):
#   tools/release.sh trixie test    Debian 13: GStreamer 1.26, Vulkan 1.4.309, GCC 14, GLib 2.84
#   tools/release.sh trixie demo
#   tools/release.sh trixie prepare the root and the test packages only (what `test` installs first:
#                                   CI runs it beside the Debian 12 build)
#   tools/release.sh trixie shell   a shell in the root, in the copy of the tree
# The root is made once (about 30 s) under $VKC_RELEASE_ROOTS (default /var/tmp/vkcompute-roots)
# and kept. Each run copies this working tree (tracked files and untracked ones git does not
# ignore) into the root's /root/gst-vkcompute, keeping that copy's build/ so that a second run
# builds only what changed, and runs the command there in a mount namespace of its own: /proc,
# /dev/shm and /tmp are mounted for the run and go with it, nothing is left mounted on the host.
# The demo's pictures end up in the root's copy: $VKC_RELEASE_ROOTS/<release>/root/gst-vkcompute/demo.
set -euo pipefail
cd "$(dirname "$0")/.."

release=${1:-}
command=${2:-}
case $command in
  demo | test | prepare | shell) ;;
  *) echo "usage: tools/release.sh RELEASE demo|test|prepare|shell   (RELEASE: a Debian suite, e.g. trixie)" >&2
     exit 2 ;;
esac
[[ $release =~ ^[a-z]+$ ]] || { echo "tools/release.sh: RELEASE is a Debian suite's name, e.g. trixie" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "tools/release.sh: debootstrap and chroot need root" >&2; exit 1; }

roots=${VKC_RELEASE_ROOTS:-/var/tmp/vkcompute-roots}
root=$roots/$release
tree=/root/gst-vkcompute

# The Debian archive this machine's apt already uses (deb822 or one-line sources), so that the
# root's packages come from the same mirror; Debian's own address where none is found.
mirror() {
  local uri
  uri=$(grep -hsE '^(URIs:|deb ) *' /etc/apt/sources.list /etc/apt/sources.list.d/*.sources \
        /etc/apt/sources.list.d/*.list |
        grep -oE 'https?://[^ ]+/debian/?( |$)' | grep -v security | head -n 1 | tr -d ' ')
  echo "${uri:-http://deb.debian.org/debian}"
}

if [ ! -x "$root/usr/bin/apt-get" ]; then
  # deps.sh waits for another apt that holds its locks (CI installs the host's packages meanwhile).
  command -v debootstrap > /dev/null || bash tools/deps.sh release
  echo "release: making the $release root in $root (debootstrap from $(mirror))"
  rm -rf "$root.partial"
  mkdir -p "$roots"
  debootstrap --variant=minbase "$release" "$root.partial" "$(mirror)" > "$roots/$release-debootstrap.log" 2>&1 ||
    { tail -n 20 "$roots/$release-debootstrap.log" >&2; exit 1; }
  mv "$root.partial" "$root"
fi
cp /etc/resolv.conf "$root/etc/resolv.conf" 2> /dev/null || true

# The working tree into the root; the copy's build/ (the root's own build) stays. A file is copied
# only when its content differs from the copy's, and then with a new time: the copy's build/ may be
# newer than a changed file's own time (a build of another tree, a checkout of an older commit),
# and ninja rebuilds by time. Files gone from the tree go from the copy.
mkdir -p "$root$tree"
staging=$(mktemp -d "$roots/.tree-XXXXXX")
git ls-files -z --cached --others --exclude-standard |
  while IFS= read -r -d '' file; do if [ -e "$file" ]; then printf '%s\0' "$file"; fi; done |
  tar --null -T - -cf - | tar -xf - -C "$staging"
(cd "$staging" && find . -type f -print0) |
  while IFS= read -r -d '' file; do
    if ! cmp -s "$staging/$file" "$root$tree/$file"; then
      mkdir -p "$(dirname "$root$tree/$file")"
      rm -f "$root$tree/$file"
      cp "$staging/$file" "$root$tree/$file"
    fi
  done
(cd "$root$tree" && find . -path ./build -prune -o -type f -print0) |
  while IFS= read -r -d '' file; do [ -e "$staging/$file" ] || rm -f "$root$tree/$file"; done
rm -rf "$staging"

case $command in
  demo) run='bash tools/demo.sh' ;;
  test) run='bash tools/test.sh' ;;
  prepare) run='bash tools/deps.sh test' ;;
  shell) run='exec bash -i' ;;
esac
echo "release: $release: $run"
# The environment of a fresh login, with what CI sets passed through.
exec unshare --mount --fork /bin/sh -c '
  root=$1; shift
  mount --make-rprivate /
  mount -t proc proc "$root/proc"
  mount -t tmpfs tmpfs "$root/dev/shm"
  mount -t tmpfs tmpfs "$root/tmp"
  exec chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM="${TERM:-dumb}" CI="${CI:-}" \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin /bin/bash -c "$@"' \
  sh "$root" "cd $tree && $run"
