#!/bin/sh
# The fallback fonts of the pictures (images/fonts.py): colour emoji, symbols and GNU
# Unifont from Debian. `make run` and `make test` run this: when a package is missing and
# apt-get can be used (root, or sudo without a password) it installs it; otherwise it
# prints one line saying what to install. It never fails: the bot runs without them
# (emoji are then left out of the pictures).
PACKAGES="fonts-noto-color-emoji fonts-symbola fonts-unifont"
missing=""
for pkg in $PACKAGES; do
  case $pkg in
    fonts-noto-color-emoji) file=/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf ;;
    fonts-symbola) file=/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf ;;
    fonts-unifont) file=/usr/share/fonts/opentype/unifont/unifont.otf ;;
  esac
  [ -f "$file" ] || missing="$missing $pkg"
done
[ -z "$missing" ] && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
  echo "note: emoji and other scripts in names need fonts; install$missing (Debian names) or set EXTRA_FONTS in .env"
  exit 0
fi
if [ "$(id -u)" -eq 0 ]; then
  run=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  run="sudo -n"
else
  echo "note: emoji and other scripts in names need fonts: sudo apt-get install$missing"
  exit 0
fi
echo "installing the fonts for names in the pictures:$missing"
export DEBIAN_FRONTEND=noninteractive
# shellcheck disable=SC2086
if ! $run apt-get install -y -q --no-install-recommends $missing >/dev/null 2>&1; then
  # the package lists may be missing or stale (a fresh container): refresh them once
  # shellcheck disable=SC2086
  { $run apt-get update -q >/dev/null 2>&1 &&
    $run apt-get install -y -q --no-install-recommends $missing >/dev/null 2>&1; } ||
    echo "note: could not install$missing; emoji are left out of the pictures until they are"
fi
exit 0
