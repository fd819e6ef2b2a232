#!/usr/bin/env bash
# Installs the Debian 12 packages grains needs, only those that are missing
# (idempotent). Uses sudo when not root.
set -euo pipefail

PACKAGES=(cmake g++ make pkg-config clang-format trilinos-all-dev libptscotch-dev libscotch-dev
  libopenmpi-dev openmpi-bin libeigen3-dev libvtk9-dev libyaml-cpp-dev libcli11-dev
  libgtest-dev libhdf5-openmpi-dev hdf5-tools python3-matplotlib python3-vtk9 python3-yaml
  python3-cvxopt python3-numpy python3-scipy
  xvfb xauth slurm-wlm)

missing=()
for pkg in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done

if ((${#missing[@]} == 0)); then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi

SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
echo "install-deps: installing ${missing[*]}"
$SUDO apt-get update -q
# --no-install-recommends: paraview's python (a recommend of some tools)
# conflicts with python3-vtk9 and would remove libvtk9-dev.
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
