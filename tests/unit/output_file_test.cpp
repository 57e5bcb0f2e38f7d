// Output files are written whole or not at all (core/output_file.hpp): a write that fails half
// way leaves the earlier file as it was and no temporary file behind; output paths that cannot
// be written are refused up front with the flag's name.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "core/output_file.hpp"

namespace particles {
namespace {

namespace fs = std::filesystem;

class OutputFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("output_file_test_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  static std::string read(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }
  // Every file in dir_, by name.
  std::string listing() const {
    std::string names;
    for (const auto& e : fs::directory_iterator(dir_)) names += e.path().filename().string() + ";";
    return names;
  }
  std::string message_of(auto&& f) {
    try {
      f();
    } catch (const std::runtime_error& e) {
      return e.what();
    }
    return "";
  }

  fs::path dir_;
};

TEST_F(OutputFile, WritesTheBytesAndCreatesTheFolders) {
  const fs::path file = dir_ / "a" / "b" / "report.csv";
  write_file_atomically(file, "x,y\n1,2\n");
  EXPECT_EQ(read(file), "x,y\n1,2\n");
  write_file_atomically(file, "replaced");
  EXPECT_EQ(read(file), "replaced");
  EXPECT_EQ(listing(), "a;");  // no temporary file left
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_ / "a" / "b"), fs::directory_iterator()), 1);
}

// A write cut short by the disk (here a file-size limit, as a full disk or quota would): the
// old file keeps its bytes and the half-written temporary file is gone.
TEST_F(OutputFile, AWriteThatFailsHalfWayLeavesTheOldFileWhole) {
  const fs::path file = dir_ / "summary.json";
  write_file_atomically(file, "{\"old\": true}\n");
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    std::signal(SIGXFSZ, SIG_IGN);  // write() then fails with EFBIG instead of killing us
    const rlimit limit{65536, 65536};
    ::setrlimit(RLIMIT_FSIZE, &limit);
    try {
      write_file_atomically(file, std::string(1 << 20, 'x'));
    } catch (const std::runtime_error& e) {
      const std::string m = e.what();
      _exit(m.find("cannot write " + file.string() + ": ") == 0 ? 0 : 3);
    }
    _exit(2);  // it did not fail
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "2: the write did not fail; 3: wrong message";
  EXPECT_EQ(read(file), "{\"old\": true}\n");
  EXPECT_EQ(listing(), "summary.json;");
}

TEST_F(OutputFile, AFileWhereTheFolderShouldBeIsRefused) {
  write_file_atomically(dir_ / "plain", "x");
  const std::string m = message_of([&] { write_file_atomically(dir_ / "plain" / "x.png", "y"); });
  EXPECT_EQ(m.rfind("cannot write " + (dir_ / "plain" / "x.png").string() +
                        ": cannot create directory " + (dir_ / "plain").string(),
                    0),
            0u)
      << m;
}

TEST_F(OutputFile, PathsAreCheckedUpFrontNamingTheFlag) {
  write_file_atomically(dir_ / "plain", "x");
  EXPECT_NO_THROW(check_output_file(dir_ / "new" / "shot.png", "--screenshot"));
  EXPECT_TRUE(fs::is_directory(dir_ / "new"));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_ / "new"), fs::directory_iterator()), 0);
  EXPECT_EQ(message_of([&] {
              check_output_file(dir_ / "plain" / "shot.png", "--screenshot");
            }).rfind("--screenshot: cannot create directory " + (dir_ / "plain").string(), 0),
            0u);
  EXPECT_EQ(message_of([&] { check_output_file(dir_, "--report"); }),
            "--report: " + dir_.string() + " is a directory");
  EXPECT_EQ(message_of([&] {
              check_output_dir(dir_ / "plain", "--out");
            }).rfind("--out: cannot create directory " + (dir_ / "plain").string(), 0),
            0u);
  EXPECT_NO_THROW(check_output_dir(dir_ / "out", "--out"));
  if (::geteuid() != 0) {  // root writes anywhere
    fs::create_directories(dir_ / "locked");
    fs::permissions(dir_ / "locked", fs::perms::owner_read | fs::perms::owner_exec);
    EXPECT_EQ(
        message_of([&] { check_output_dir(dir_ / "locked", "--out"); }),
        "--out: cannot create files in " + (dir_ / "locked").string() + ": Permission denied");
    fs::permissions(dir_ / "locked", fs::perms::owner_all);
  }
}

}  // namespace
}  // namespace particles
