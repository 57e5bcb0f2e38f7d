// Runs a shell command line the way a user's terminal would, for the tests that judge the real
// binary by what it prints and how it exits.
#pragma once

#include <sys/wait.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <string>

namespace particles::test {

struct CommandResult {
  int status = -1;     // exit code, or -1 when the process did not exit normally
  std::string output;  // stdout and stderr together, in the order written
  double seconds = 0.0;
};

// One shell word, whatever `s` holds (spaces, quotes).
inline std::string shell_quoted(const std::string& s) {
  std::string q = "'";
  for (const char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// `command` goes to /bin/sh as it is, with stderr joined to stdout.
inline CommandResult run_command(const std::string& command) {
  CommandResult r;
  const auto start = std::chrono::steady_clock::now();
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return r;
  std::array<char, 4096> buffer{};
  while (const std::size_t n = std::fread(buffer.data(), 1, buffer.size(), pipe)) {
    r.output.append(buffer.data(), n);
  }
  const int status = ::pclose(pipe);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace particles::test
