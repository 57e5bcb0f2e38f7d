#include "app/main/process.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

extern char** environ;

namespace particles {

std::optional<std::filesystem::path> find_program(std::string_view program,
                                                  std::string_view path_list) {
  if (program.empty() || program.find('/') != std::string_view::npos) return std::nullopt;
  std::size_t start = 0;
  while (start <= path_list.size()) {
    std::size_t end = path_list.find(':', start);
    if (end == std::string_view::npos) end = path_list.size();
    const std::string_view dir = path_list.substr(start, end - start);
    const std::filesystem::path candidate =
        std::filesystem::path(dir.empty() ? "." : std::string(dir)) / std::string(program);
    std::error_code ec;
    if (std::filesystem::is_regular_file(candidate, ec) && ::access(candidate.c_str(), X_OK) == 0) {
      return candidate;
    }
    start = end + 1;
  }
  return std::nullopt;
}

std::optional<std::filesystem::path> find_program_on_path(std::string_view program) {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return std::nullopt;
  return find_program(program, path);
}

std::string ProcessResult::describe() const {
  if (!started) return "could not start: " + error;
  if (!error.empty()) return error;
  if (signal != 0) return "killed by signal " + std::to_string(signal);
  return "exit status " + std::to_string(exit_status);
}

ProcessResult run_program(const std::filesystem::path& program,
                          const std::vector<std::string>& args) {
  std::vector<std::string> storage;
  storage.reserve(args.size() + 1);
  storage.push_back(program.filename().string());
  storage.insert(storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  argv.reserve(storage.size() + 1);
  for (std::string& a : storage) argv.push_back(a.data());
  argv.push_back(nullptr);

  ProcessResult result;
  pid_t pid = 0;
  if (const int e = ::posix_spawn(&pid, program.c_str(), nullptr, nullptr, argv.data(), environ);
      e != 0) {
    result.error = program.string() + ": " + std::strerror(e);
    return result;
  }
  result.started = true;
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      result.error = std::string("waitpid: ") + std::strerror(errno);
      return result;
    }
  }
  if (WIFEXITED(status)) {
    result.exit_status = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.signal = WTERMSIG(status);
  }
  return result;
}

}  // namespace particles
