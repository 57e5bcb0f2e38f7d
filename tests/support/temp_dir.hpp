#pragma once
// A fresh, empty folder for one test, removed with the object. Its name carries the process id:
// test binaries run at once (ctest -j), and two of them must never share a folder.
#include <unistd.h>

#include <filesystem>
#include <string>
#include <system_error>

namespace particles::test {

class TempDir {
 public:
  // <temp>/<name>_<pid>, emptied if a crashed run left it.
  explicit TempDir(const std::string& name)
      : path_(std::filesystem::temp_directory_path() / (name + "_" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ignored;  // a destructor cannot throw; a folder left behind is harmless
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace particles::test
