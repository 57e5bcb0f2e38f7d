#pragma once
// The particle counts each backend takes: one table, which --help prints, and against which
// every count a user can give (--count, the bench's and the soak's --counts, a bench file's
// counts) is checked once the backend is known, before any buffer grows. The scene loader's
// `count` and `cpu_count` ranges are the same two limits.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace particles {

struct BackendLimits {
  std::string_view backend;         // as Backend::name() says it: "cuda", "cpu"
  std::uint32_t max_count;          // particles
  std::string_view max_count_text;  // the same as a power of two, for messages
};

// CUDA: 2^27, what a point cloud may hold (kPlyMaxPoints) and about 28 GiB of device memory at
// 212 B a particle (cuda_backend.cpp); the device's free memory is checked as well. CPU: 2^24,
// the top of a scene's cpu_count and of a point cloud's CPU count; at 2^27 the CPU backend grew
// to 12 GB of host memory with frames of seconds (issue 64).
inline constexpr std::array<BackendLimits, 2> kBackendLimits{{
    {"cuda", std::uint32_t{1} << 27, "2^27"},
    {"cpu", std::uint32_t{1} << 24, "2^24"},
}};

inline constexpr std::uint32_t kCudaMaxCount = kBackendLimits[0].max_count;
inline constexpr std::uint32_t kCpuMaxCount = kBackendLimits[1].max_count;
// The largest of any backend: the range a count flag takes before the backend is known.
inline constexpr std::uint32_t kMaxCount = kCudaMaxCount;
inline constexpr std::string_view kMaxCountText = kBackendLimits[0].max_count_text;

// Throws std::runtime_error "<what>: 134217728 particles are more than the cpu backend takes
// (at most 16777216, 2^24)" when `count` is above `backend`'s limit; a backend not in the table
// is held to kMaxCount.
void check_backend_count(std::string_view backend, std::uint32_t count, std::string_view what);

// The table as --help prints it, one line a backend: "  cuda  1 to 134217728 (2^27)".
std::string backend_limits_help();

}  // namespace particles
