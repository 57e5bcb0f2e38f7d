// Numeric flags the real binary refuses before it runs a frame (issue 64): a --max-growth that is
// not a finite number in range (NaN used to turn the soak's memory check off and pass), and a
// particle count above the backend's limit (the CPU backend took 2^27 and grew to 12 GB) from
// the run's --count, the bench's --counts, a bench file's counts and the soak's --counts.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/support/run_command.hpp"
#include "tests/support/temp_dir.hpp"

namespace {

namespace fs = std::filesystem;

using Result = particles::test::CommandResult;
using particles::test::shell_quoted;

Result run(const std::string& args) {
  return particles::test::run_command(shell_quoted(PARTICLES_BINARY) + " " + args);
}

const std::string kCpuLimit =
    "134217728 particles are more than the cpu backend takes (at most 16777216, 2^24)";

TEST(InputBounds, SoakMaxGrowthMustBeAFiniteNumberInRange) {
  for (const char* value : {"nan", "NaN", "inf", "-inf", "-1", "1001"}) {
    const Result r = run(std::string("soak --backend cpu --max-growth ") + value);
    EXPECT_EQ(r.status, 2) << value << ": " << r.output;
    EXPECT_NE(r.output.find("--max-growth"), std::string::npos) << value << ": " << r.output;
    EXPECT_NE(r.output.find("expected a finite number in [0, 1000]"), std::string::npos)
        << value << ": " << r.output;
  }
}

TEST(InputBounds, ACountAboveTheCpuBackendsLimitIsRefusedNamingIt) {
  const particles::test::TempDir temp("cli_bounds");
  const fs::path& dir = temp.path();
  std::ofstream(dir / "huge.toml") << "counts = [2000, 134217728]\n";
  const std::string out = " --out " + shell_quoted((dir / "out").string());
  const std::pair<std::string, std::string> cases[] = {
      // The backend named: a usage error at once.
      {"--headless --backend cpu --frames 1000000 --count 134217728", "--count: " + kCpuLimit},
      // Known once the bench or soak has its backend, before any frame.
      {"bench --backend cpu --frames 100000 --counts 134217728" + out,
       "bench counts: " + kCpuLimit},
      {"bench --backend cpu --frames 100000 --file " + shell_quoted((dir / "huge.toml").string()) +
           out,
       "bench counts: " + kCpuLimit},
      {"soak --backend cpu --frames 1000000 --counts 2000,134217728" + out,
       "--counts: " + kCpuLimit},
  };
  for (const auto& [args, phrase] : cases) {
    const Result r = run(args);
    EXPECT_NE(r.status, 0) << args << ": " << r.output;
    EXPECT_NE(r.status, -1) << args << ": " << r.output;
    EXPECT_NE(r.output.find("error: " + phrase), std::string::npos) << args << ": " << r.output;
    EXPECT_LT(r.seconds, 30.0) << args;
  }
}

TEST(InputBounds, TheHelpOfEachCommandListsTheLimits) {
  for (const char* command : {"--help", "bench --help", "soak --help"}) {
    const Result r = run(command);
    EXPECT_EQ(r.status, 0) << command;
    EXPECT_NE(r.output.find("  cuda  1 to 134217728 (2^27)\n  cpu   1 to 16777216 (2^24)"),
              std::string::npos)
        << command << ":\n"
        << r.output;
  }
}

}  // namespace
