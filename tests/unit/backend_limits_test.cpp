// One table of particle counts per backend (core/backend_limits.hpp): the CPU backend's 2^24
// (its scene default's and point cloud's top) is refused above, naming the limit, and the help
// lists every backend.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "core/backend_limits.hpp"

namespace particles {
namespace {

std::string message_of(std::string_view backend, std::uint32_t count) {
  try {
    check_backend_count(backend, count, "--count");
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST(BackendLimits, TheCpuBackendTakesAtMostTwoToThe24) {
  EXPECT_EQ(message_of("cpu", 1u << 24), "");
  EXPECT_EQ(message_of("cpu", 134217728u),
            "--count: 134217728 particles are more than the cpu backend takes (at most 16777216, "
            "2^24)");
  EXPECT_EQ(message_of("cuda", 1u << 27), "");
  EXPECT_NE(message_of("cuda", (1u << 27) + 1).find("(at most 134217728, 2^27)"),
            std::string::npos);
}

TEST(BackendLimits, TheHelpListsEveryBackend) {
  EXPECT_EQ(backend_limits_help(),
            "Particle counts each backend takes (--count, bench and soak --counts):\n"
            "  cuda  1 to 134217728 (2^27)\n"
            "  cpu   1 to 16777216 (2^24)\n");
  EXPECT_EQ(kMaxCount, kCudaMaxCount);
}

}  // namespace
}  // namespace particles
