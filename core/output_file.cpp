#include "core/output_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>
#include <system_error>

namespace particles {
namespace fs = std::filesystem;

namespace {

std::string reason(int error) {
  return std::generic_category().message(error);
}

fs::path temporary_beside(const fs::path& path) {
  std::string name(".");  // hidden, and never a name the program writes itself
  name.append(path.filename().string()).append(".tmp-").append(std::to_string(::getpid()));
  return path.parent_path() / name;
}

// Creates `dir` (and its parents) unless it exists; throws `prefix` + the reason.
void make_directory(const fs::path& dir, const std::string& prefix) {
  if (dir.empty()) return;
  std::error_code ec;
  fs::create_directories(dir, ec);
  std::error_code is_dir_ec;
  if (ec || !fs::is_directory(dir, is_dir_ec)) {
    throw std::runtime_error(prefix + "cannot create directory " + dir.string() + ": " +
                             (ec ? ec.message() : std::string("a file of that name exists")));
  }
}

// Creates and removes a file in `dir`; throws `prefix` + the reason when that fails.
void probe_directory(const fs::path& dir, const std::string& prefix) {
  const fs::path probe =
      (dir.empty() ? fs::path(".") : dir) / (".particles-probe-" + std::to_string(::getpid()));
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    const int error = errno;
    throw std::runtime_error(prefix + "cannot create files in " +
                             (dir.empty() ? std::string(".") : dir.string()) + ": " +
                             reason(error));
  }
  ::close(fd);
  ::unlink(probe.c_str());
}

}  // namespace

void write_file_atomically(const fs::path& path, std::string_view bytes) {
  const std::string prefix = "cannot write " + path.string() + ": ";
  if (path.empty() || !path.has_filename()) throw std::runtime_error(prefix + "not a file name");
  make_directory(path.parent_path(), "cannot write " + path.string() + ": ");
  const fs::path temporary = temporary_beside(path);
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw std::runtime_error(prefix + reason(errno));
  auto fail = [&](int error) {
    ::close(fd);
    ::unlink(temporary.c_str());
    throw std::runtime_error(prefix + reason(error));
  };
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail(n < 0 ? errno : ENOSPC);
    done += static_cast<std::size_t>(n);
  }
  // On the disk before the rename makes it visible: a crash after it finds the whole file.
  if (::fsync(fd) != 0 && errno != EINVAL) fail(errno);  // EINVAL: a pipe or /dev file
  if (::close(fd) != 0) {
    const int error = errno;
    ::unlink(temporary.c_str());
    throw std::runtime_error(prefix + reason(error));
  }
  if (::rename(temporary.c_str(), path.c_str()) != 0) {
    const int error = errno;
    ::unlink(temporary.c_str());
    throw std::runtime_error(prefix + reason(error));
  }
}

void check_output_file(const fs::path& path, std::string_view flag) {
  const std::string prefix = std::string(flag) + ": ";
  if (path.empty() || !path.has_filename()) {
    throw std::runtime_error(prefix + "'" + path.string() + "' is not a file name");
  }
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    throw std::runtime_error(prefix + path.string() + " is a directory");
  }
  make_directory(path.parent_path(), prefix);
  probe_directory(path.parent_path(), prefix);
}

void check_output_dir(const fs::path& dir, std::string_view flag) {
  const std::string prefix = std::string(flag) + ": ";
  make_directory(dir, prefix);
  probe_directory(dir, prefix);
}

}  // namespace particles
