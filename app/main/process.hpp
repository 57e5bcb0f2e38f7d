#pragma once
// Finding a program on the PATH and running it with an argument vector, no shell in between, so
// paths with spaces, quotes or `$` reach it as they are.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace particles {

// The first executable regular file named `program` in the ':'-separated directories of
// `path_list` (an empty entry is the working directory, as for the shell); nullopt when none is.
std::optional<std::filesystem::path> find_program(std::string_view program,
                                                  std::string_view path_list);
// The same over the environment's PATH (none set: nothing is found).
std::optional<std::filesystem::path> find_program_on_path(std::string_view program);

struct ProcessResult {
  bool started = false;  // false: posix_spawn failed (`error` says why)
  int exit_status = -1;  // the exit status when it exited normally, else -1
  int signal = 0;        // the signal that ended it, if one did
  std::string error;
  bool succeeded() const { return started && exit_status == 0; }
  // "exit status 3", "killed by signal 9" or "could not start: ...", for messages.
  std::string describe() const;
};

// Runs `program` with `args` (argv[1...]; argv[0] is the program's file name), its standard
// streams the caller's, in this process's environment, and waits for it.
ProcessResult run_program(const std::filesystem::path& program,
                          const std::vector<std::string>& args);

}  // namespace particles
