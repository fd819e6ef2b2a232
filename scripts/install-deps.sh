#!/usr/bin/env bash
# Installs the Debian 12 packages grains needs, only those that are missing
# (idempotent). Uses sudo when not root.
set -euo pipefail

PACKAGES=(cmake g++ make pkg-config clang-format trilinos-all-dev libptscotch-dev libscotch-dev
  libopenmpi-dev openmpi-bin libeigen3-dev libvtk9-dev libyaml-cpp-dev libcli11-dev
  libgtest-dev libhdf5-openmpi-dev hdf5-tools python3-matplotlib python3-vtk9 python3-yaml
  python3-cvxopt python3-numpy python3-scipy
  xvfb xauth procps slurm-wlm paraview ffmpeg)

missing=()
for pkg in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done

SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi

if ((${#missing[@]} == 0)); then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
else
  echo "install-deps: installing ${missing[*]}"
  $SUDO apt-get update -q
  # --no-install-recommends: paraview recommends python3-paraview, which
  # conflicts with python3-vtk9 and would remove libvtk9-dev.
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# ParaView's Python modules (python3-paraview) cannot be installed beside
# python3-vtk9, so they are unpacked into a private folder instead:
# scripts/paraview/pvbatch.sh puts it on pvbatch's PYTHONPATH. Redone only
# when the folder is missing or holds another version than the paraview
# package (docs/visualisation.md).
PV_DIR="${GRAINS_PARAVIEW_DIR:-/opt/grains/paraview}"
pv_version=$(dpkg-query -W -f='${Version}' paraview)
if [[ -f "$PV_DIR/version" && $(cat "$PV_DIR/version") == "$pv_version" ]]; then
  echo "install-deps: ParaView's Python $pv_version present in $PV_DIR"
  exit 0
fi
echo "install-deps: unpacking python3-paraview $pv_version into $PV_DIR"
download=$(mktemp -d)
trap 'rm -rf "$download"' EXIT
chmod a+rwx "$download" # apt downloads as its own user (_apt)
if ! (cd "$download" && apt-get download -q "python3-paraview=$pv_version"); then
  $SUDO apt-get update -q
  (cd "$download" && apt-get download -q "python3-paraview=$pv_version")
fi
$SUDO rm -rf "$PV_DIR"
$SUDO mkdir -p "$PV_DIR"
$SUDO dpkg -x "$download"/python3-paraview_*.deb "$PV_DIR"
echo "$pv_version" | $SUDO tee "$PV_DIR/version" >/dev/null
