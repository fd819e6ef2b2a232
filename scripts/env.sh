# Sourced by the scripts: lets Open MPI run as root (CI containers) and on
# more ranks than cores, and keeps OpenMP from oversubscribing MPI ranks.
export OMPI_ALLOW_RUN_AS_ROOT=1
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
