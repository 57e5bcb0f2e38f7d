#include "tools/nasty_inputs/case_run.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <vector>

#include "core/file_bytes.hpp"
#include "tests/support/stb_image_impl.hpp"
// stb_image first (stb_image_impl.hpp)
#include "tests/support/read_png.hpp"

namespace nasty {
namespace {

namespace fs = std::filesystem;

std::string read_bytes(const fs::path& file) {
  return particles::file_bytes(file).value_or("");
}

// What a folder holds, by relative path: its type, and a regular file's bytes (hashed) or a
// link's target. Links are not followed.
std::map<std::string, std::string> snapshot(const fs::path& dir) {
  std::map<std::string, std::string> entries;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, fs::directory_options::none, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const fs::path& p = it->path();
    const std::string name = p.lexically_relative(dir).string();
    switch (fs::symlink_status(p, ec).type()) {
      case fs::file_type::regular:
        entries[name] = "file " + std::to_string(std::hash<std::string>{}(read_bytes(p)));
        break;
      case fs::file_type::directory:
        entries[name] = "dir";
        break;
      case fs::file_type::symlink:
        entries[name] = "link " + fs::read_symlink(p, ec).string();
        break;
      default:
        entries[name] = "node " + std::to_string(static_cast<int>(fs::symlink_status(p).type()));
    }
  }
  return entries;
}

void make_files(const Case& c, const fs::path& dir) {
  for (const CaseFile& f : c.files) {
    const fs::path path = dir / f.name;
    switch (f.kind) {
      case CaseFile::Kind::regular:
        std::ofstream(path, std::ios::binary) << f.bytes;
        break;
      case CaseFile::Kind::directory:
        fs::create_directories(path);
        break;
      case CaseFile::Kind::fifo:
        if (::mkfifo(path.c_str(), 0644) != 0) throw std::runtime_error("mkfifo " + path.string());
        break;
      case CaseFile::Kind::symlink:
        fs::create_symlink(f.bytes, path);
        break;
      case CaseFile::Kind::char_device:  // /dev/null's numbers, in the case folder
        if (::mknod(path.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0) {
          throw std::runtime_error("mknod " + path.string());
        }
        break;
    }
  }
}

// The case's named outputs as plain relative paths inside its folder; names that are no place
// of their own there ("", ".", "/", "..", absolute) allow nothing.
std::vector<fs::path> allowed_places(const Case& c) {
  std::vector<fs::path> places;
  for (const std::string& o : c.outputs) {
    const fs::path p = fs::path(o).lexically_normal();
    if (o.empty() || p.is_absolute() || p.empty() || p == "." || *p.begin() == "..") continue;
    places.push_back(p.has_filename() ? p : p.parent_path());
  }
  return places;
}

bool prefix_of(const fs::path& a, const fs::path& b) {  // a is b or one of its folders
  auto ia = a.begin(), ib = b.begin();
  for (; ia != a.end(); ++ia, ++ib) {
    if (ib == b.end() || *ia != *ib) return false;
  }
  return true;
}

// What changed that the outputs do not allow: a new entry must be a named output, inside one,
// or a folder on the way to one; an entry that was there may change only when it is the
// regular file "photo.png" (an earlier output) named as an output and stays a regular file.
std::string judge_changes(const std::map<std::string, std::string>& before,
                          const std::map<std::string, std::string>& after,
                          const std::vector<fs::path>& allowed) {
  std::string touched;
  auto note = [&touched](const std::string& what) {
    if (touched.size() < 300) touched += (touched.empty() ? "" : "; ") + what;
  };
  for (const auto& [name, what] : after) {
    const auto was = before.find(name);
    if (was == before.end()) {
      bool ok = false;
      for (const fs::path& a : allowed) ok = ok || prefix_of(a, name) || prefix_of(name, a);
      if (!ok) note("created " + name);
    } else if (was->second != what) {
      bool ok = false;
      for (const fs::path& a : allowed) ok = ok || (a == name && name == "photo.png");
      if (!ok || what.rfind("file ", 0) != 0) note("changed " + name);
    }
  }
  for (const auto& [name, what] : before) {
    if (!after.count(name)) note("removed " + name);
  }
  return touched;
}

// One colour edge to edge; an unreadable file counts as not black (judged elsewhere), and so
// does a single pixel, which is one colour whatever it shows.
bool one_colour(const fs::path& png) {
  const particles::test::PngPixels image = particles::test::read_png(png);
  if (image.pixels.empty()) return false;
  const std::vector<unsigned char>& p = image.pixels;
  bool same = image.width * image.height > 1;
  for (std::size_t i = 4; i < p.size() && same; ++i) same = p[i] == p[i % 4];
  return same;
}

}  // namespace

Verdict run_case(const Case& c, const std::string& binary, const std::string& work,
                 double time_limit_s, bool keep) {
  Verdict v;
  const fs::path dir = fs::path(work) / "run";
  fs::remove_all(work);
  fs::create_directories(dir);
  make_files(c, dir);
  const auto before = snapshot(dir);
  const fs::path log = fs::path(work) / "output.txt";

  std::vector<std::string> words = {binary};
  words.insert(words.end(), c.args.begin(), c.args.end());
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    // Only async-signal-safe calls between fork and exec (the tool runs cases on threads).
    const int out = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (out < 0 || ::chdir(dir.c_str()) != 0) ::_exit(126);
    ::dup2(out, 1);
    ::dup2(out, 2);
    const int in = ::open("/dev/null", O_RDONLY);
    if (in >= 0) ::dup2(in, 0);
    ::setpgid(0, 0);  // its own group, so a time-out ends whatever it started
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  int status = 0;
  for (;;) {
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (elapsed > time_limit_s && v.outcome != Verdict::Outcome::hung) {
      v.outcome = Verdict::Outcome::hung;
      ::kill(-pid, SIGKILL);
      ::kill(pid, SIGKILL);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  v.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  v.output = read_bytes(log);
  if (v.output.size() > 4000)
    v.output = v.output.substr(0, 2000) + "\n...\n" + v.output.substr(v.output.size() - 2000);
  if (v.outcome != Verdict::Outcome::hung) {
    if (WIFSIGNALED(status)) {
      v.signal = WTERMSIG(status);
      v.outcome = Verdict::Outcome::crashed;
    } else {
      v.exit_code = WEXITSTATUS(status);
      if (v.exit_code == 0) {
        v.outcome = Verdict::Outcome::ran;
      } else if (v.exit_code == 1 || v.exit_code == 2) {
        v.outcome = Verdict::Outcome::refused;
        v.message = v.output.find("error") != std::string::npos ||
                    v.output.find("failed") != std::string::npos ||
                    v.output.find("FAILED") != std::string::npos;
      } else {
        v.outcome = Verdict::Outcome::crashed;  // 127: exec failed; others: not ours
      }
    }
    // An uncaught exception or a sanitizer report ends in abort(), which is a crash anyway;
    // these words catch one that a wrapper turned into an exit code.
    for (const char* word : {"terminate called", "AddressSanitizer",
                             "runtime error:", "Segmentation fault", "core dumped"}) {
      if (v.output.find(word) != std::string::npos) v.outcome = Verdict::Outcome::crashed;
    }
  }
  if (!c.screenshot.empty()) {
    const fs::path shot = dir / c.screenshot;
    const bool exists = fs::is_regular_file(shot);
    if (v.outcome == Verdict::Outcome::ran && !exists) v.missing_screenshot = true;
    if (exists && one_colour(shot)) {
      v.black = true;
      v.black_said = v.outcome != Verdict::Outcome::ran ||
                     v.output.find("note: the screenshot is all background") != std::string::npos;
    }
  }
  v.touched = judge_changes(before, snapshot(dir), allowed_places(c));
  if (!keep) fs::remove_all(work);
  return v;
}

}  // namespace nasty
