/* Preloaded into the MPI example's ranks, this makes the MPI library look
 * ROCm-aware (Open MPI 5's query; the Open MPI under test has none), so
 * offload-mpi takes its device-address path. On libomptarget's CPU plugin a
 * device address is host memory, so MPI reads and writes it as it would on a
 * GPU-aware MPI. */
int MPIX_Query_rocm_support(void) { return 1; }
