#pragma once
// Functions marked PARTICLES_HD compile for both backends: nvcc sees __host__ __device__, the
// host compiler sees plain inline functions. This is what lets the CPU backend be the test
// oracle for every kernel: both run the same arithmetic.
#if defined(__CUDACC__)
#define PARTICLES_HD __host__ __device__ __forceinline__
#else
#define PARTICLES_HD inline
#endif
