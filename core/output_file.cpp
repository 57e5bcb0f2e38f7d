#include "core/output_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>
#include <system_error>

#include "core/file_kind.hpp"

namespace particles {
namespace fs = std::filesystem;

namespace {

std::string reason(int error) {
  return std::generic_category().message(error);
}

// What an existing `path` is when it may not be written (rule 2 of the header), as "a FIFO";
// empty when nothing is there or a regular file is. The link itself is judged, not its target.
std::string forbidden_kind(const fs::path& path) {
  std::error_code ec;
  const fs::file_type type = fs::symlink_status(path, ec).type();
  // none: cannot tell (no search permission), and opening it will say why.
  if (type == fs::file_type::not_found || type == fs::file_type::regular ||
      type == fs::file_type::none) {
    return {};
  }
  return std::string(file_kind_name(type));
}

bool exists_here(const fs::path& path) {
  std::error_code ec;
  return fs::symlink_status(path, ec).type() != fs::file_type::not_found && !ec;
}

// Opens a new file beside `path` for writing, exclusively: a name that is taken (another
// process's temporary file, or anyone's file that happens to look like one) is skipped, never
// truncated. Returns the descriptor and sets `temporary`; throws `prefix` + the reason.
int open_temporary_beside(const fs::path& path, fs::path& temporary, const std::string& prefix) {
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::string name(".");  // hidden, and never a name the program writes itself
    name.append(path.filename().string())
        .append(".tmp-")
        .append(std::to_string(::getpid()))
        .append("-")
        .append(std::to_string(attempt));
    temporary = path.parent_path() / name;
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd >= 0) return fd;
    if (errno != EEXIST) throw std::runtime_error(prefix + reason(errno));
  }
  throw std::runtime_error(prefix + "no free temporary name beside it");
}

// Makes the written `temporary` visible as `path`. Overwrite::refuse links it there, which fails
// when `path` has appeared meanwhile, instead of renaming over it; a file system without hard
// links (EPERM, ENOTSUP) falls back to the rename after a last look.
void publish(const fs::path& temporary, const fs::path& path, Overwrite overwrite,
             const std::string& prefix) {
  if (overwrite == Overwrite::refuse) {
    if (::link(temporary.c_str(), path.c_str()) == 0) {
      ::unlink(temporary.c_str());
      return;
    }
    const int error = errno;
    if (error == EEXIST || (error != EPERM && error != ENOTSUP && error != EOPNOTSUPP)) {
      ::unlink(temporary.c_str());
      throw std::runtime_error(prefix + (error == EEXIST ? "a file of that name exists; it is "
                                                           "left as it is"
                                                         : reason(error)));
    }
    if (exists_here(path)) {
      ::unlink(temporary.c_str());
      throw std::runtime_error(prefix + "a file of that name exists; it is left as it is");
    }
  }
  if (::rename(temporary.c_str(), path.c_str()) != 0) {
    const int error = errno;
    ::unlink(temporary.c_str());
    throw std::runtime_error(prefix + reason(error));
  }
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

// Creates and removes a file of its own in `dir`; throws `prefix` + the reason when that fails.
void probe_directory(const fs::path& dir, const std::string& prefix) {
  const fs::path here = dir.empty() ? fs::path(".") : dir;
  for (int attempt = 0; attempt < 100; ++attempt) {
    const fs::path probe =
        here / (".particles-probe-" + std::to_string(::getpid()) + "-" + std::to_string(attempt));
    // Exclusive: a file that happens to have the name is skipped, never truncated or removed.
    const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd >= 0) {
      ::close(fd);
      ::unlink(probe.c_str());
      return;
    }
    if (errno != EEXIST) {
      const int error = errno;
      throw std::runtime_error(prefix + "cannot create files in " + here.string() + ": " +
                               reason(error));
    }
  }
  throw std::runtime_error(prefix + "cannot create files in " + here.string() +
                           ": no free name for a test file");
}

std::string flag_prefix(std::string_view flag) {
  return std::string(flag) + ": ";
}

}  // namespace

void write_file_atomically(const fs::path& path, std::string_view bytes, Overwrite overwrite) {
  const std::string prefix = "cannot write " + path.string() + ": ";
  if (path.empty() || !path.has_filename()) throw std::runtime_error(prefix + "not a file name");
  // Checked again here, not only up front: the P key and recorded frames are checked nowhere
  // else, and a path can change while a run takes its frames.
  if (const std::string kind = forbidden_kind(path); !kind.empty()) {
    throw std::runtime_error(prefix + "it is " + kind + ", not a regular file");
  }
  if (overwrite == Overwrite::refuse && exists_here(path)) {
    throw std::runtime_error(prefix + "a file of that name exists; it is left as it is");
  }
  make_directory(path.parent_path(), prefix);
  fs::path temporary;
  const int fd = open_temporary_beside(path, temporary, prefix);
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
  if (::fsync(fd) != 0 && errno != EINVAL) fail(errno);  // EINVAL: a file system without fsync
  if (::close(fd) != 0) {
    const int error = errno;
    ::unlink(temporary.c_str());
    throw std::runtime_error(prefix + reason(error));
  }
  publish(temporary, path, overwrite, prefix);
}

void check_output_file(const fs::path& path, std::string_view flag,
                       const std::vector<RunInput>& inputs) {
  const std::string prefix = flag_prefix(flag);
  if (path.empty()) throw std::runtime_error(prefix + "an empty path names no file");
  if (!path.has_filename()) {
    throw std::runtime_error(prefix + "'" + path.string() + "' is not a file name");
  }
  const std::string kind = forbidden_kind(path);
  if (kind == "a directory") throw std::runtime_error(prefix + path.string() + " is a directory");
  if (kind == "a symbolic link") {
    throw std::runtime_error(prefix + path.string() +
                             " is a symbolic link: an output is never written over or through a "
                             "link; name the file itself, or a new one");
  }
  if (!kind.empty()) {
    throw std::runtime_error(prefix + path.string() + " is " + kind +
                             ", not a regular file: an output replaces only a regular file");
  }
  check_not_an_input(path, flag, inputs);
  make_directory(path.parent_path(), prefix);
  probe_directory(path.parent_path(), prefix);
}

void check_not_an_input(const fs::path& path, std::string_view flag,
                        const std::vector<RunInput>& inputs) {
  for (const RunInput& input : inputs) {
    std::error_code ec;  // false, with ec set, when either is missing
    if (fs::equivalent(path, input.path, ec) && !ec) {
      throw std::runtime_error(flag_prefix(flag) + path.string() + " is " + input.what +
                               " this run reads; name another file for the output");
    }
  }
}

void check_distinct_outputs(const std::vector<NamedOutput>& outputs) {
  // Where each output will be: links in its existing parents resolved, the rest normalised.
  // "shot.png", "./shot.png" and "out/../shot.png" are one place.
  std::vector<fs::path> places;
  for (const NamedOutput& o : outputs) {
    std::error_code ec;
    fs::path place = fs::weakly_canonical(fs::absolute(o.path, ec), ec);
    if (ec) place = fs::absolute(o.path).lexically_normal();
    if (!place.has_filename()) place = place.parent_path();  // "rec/" is "rec"
    places.push_back(place);
  }
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    for (std::size_t j = 0; j < outputs.size(); ++j) {
      const NamedOutput& a = outputs[i];
      const NamedOutput& b = outputs[j];
      if (i == j || a.path.empty() || b.path.empty()) continue;
      std::error_code ec;
      const bool same = places[i] == places[j] || (fs::equivalent(a.path, b.path, ec) && !ec);
      if (same && i < j) {
        throw std::runtime_error(flag_prefix(b.flag) + b.path.string() + " is also the " + a.flag +
                                 " output (" + a.path.string() +
                                 "): one would replace the other; name a different file for each");
      }
      // A file inside a folder output: the folder takes only the files the run names there.
      if (b.directory && !a.directory && !same) {
        const auto where =
            std::mismatch(places[j].begin(), places[j].end(), places[i].begin(), places[i].end());
        if (where.first == places[j].end()) {
          throw std::runtime_error(flag_prefix(a.flag) + a.path.string() + " is inside the " +
                                   b.flag + " folder " + b.path.string() +
                                   ", which holds only the files that flag writes; name a file "
                                   "outside it");
        }
      }
    }
  }
}

void check_output_dir(const fs::path& dir, std::string_view flag,
                      const std::vector<std::string>& file_names,
                      const std::vector<RunInput>& inputs) {
  const std::string prefix = flag_prefix(flag);
  if (dir.empty()) throw std::runtime_error(prefix + "an empty path names no directory");
  make_directory(dir, prefix);
  probe_directory(dir, prefix);
  for (const std::string& name : file_names) check_output_file(dir / name, flag, inputs);
}

fs::path prepare_empty_output_dir(const fs::path& dir, std::string_view flag) {
  const std::string prefix = flag_prefix(flag);
  if (dir.empty()) throw std::runtime_error(prefix + "an empty path names no directory");
  std::error_code ec;
  fs::path absolute = fs::absolute(dir, ec).lexically_normal();
  if (ec) throw std::runtime_error(prefix + "cannot resolve " + dir.string() + ": " + ec.message());
  if (!absolute.has_filename()) absolute = absolute.parent_path();  // "rec/" is "rec"
  const fs::file_status status = fs::status(absolute, ec);  // a link to a folder is the folder
  if (status.type() == fs::file_type::not_found) {
    make_directory(absolute, prefix);
  } else if (status.type() != fs::file_type::directory) {
    throw std::runtime_error(prefix + "cannot create directory " + absolute.string() + ": " +
                             (ec ? ec.message() : std::string("a file of that name exists")));
  } else {
    fs::directory_iterator entries(absolute, ec);
    if (ec) {
      throw std::runtime_error(prefix + "cannot list " + absolute.string() + ": " + ec.message());
    }
    if (entries != fs::directory_iterator()) {
      // Suggest a sibling nobody has taken yet.
      fs::path fresh;
      for (int n = 2; fresh.empty() || exists_here(fresh); ++n) {
        fresh = absolute.parent_path() / (absolute.filename().string() + "-" + std::to_string(n));
      }
      throw std::runtime_error(prefix + absolute.string() + " is not empty (it holds " +
                               entries->path().filename().string() +
                               "): the run writes only into a new or empty folder, so that it "
                               "replaces nothing; name a fresh one, such as " +
                               fresh.string());
    }
  }
  probe_directory(absolute, prefix);
  return absolute;
}

fs::path unused_file_name(const fs::path& dir, std::string_view stem, std::string_view extension,
                          const std::vector<fs::path>& reserved) {
  auto place = [](const fs::path& p) {
    std::error_code ec;
    const fs::path absolute = fs::absolute(p, ec);
    const fs::path canonical = fs::weakly_canonical(absolute, ec);
    return ec ? absolute.lexically_normal() : canonical;
  };
  std::vector<fs::path> taken;
  for (const fs::path& r : reserved) {
    if (!r.empty()) taken.push_back(place(r));
  }
  for (int n = 1; n <= 100000; ++n) {
    std::string name(stem);
    if (n > 1) name.append("-").append(std::to_string(n));
    name.append(".").append(extension);
    const fs::path path = dir / name;
    if (exists_here(path)) continue;
    if (std::find(taken.begin(), taken.end(), place(path)) == taken.end()) return path;
  }
  throw std::runtime_error("no unused name for " + (dir / stem).string() + "." +
                           std::string(extension));
}

}  // namespace particles
