#pragma once
// Output files (screenshots, reports, bench and soak results, recorded frames) are written whole
// or not at all, and their paths are checked before a run starts rather than after it.
#include <filesystem>
#include <string_view>

namespace particles {

// Writes `bytes` to `path` through a temporary file in the same directory (".NAME.tmp-PID"),
// flushed to the disk and then renamed over `path`: a write that fails or is interrupted half
// way (a full disk, a signal, a crash) leaves the earlier file or none, never a truncated one.
// Creates missing parent directories. Throws std::runtime_error naming `path` and the reason;
// the temporary file is removed on failure.
void write_file_atomically(const std::filesystem::path& path, std::string_view bytes);

// Throws std::runtime_error starting with `flag` ("--screenshot: ...") unless `path` can be
// written: not a directory, its parent directory exists or can be created, and a file can be
// created there. Creates missing parent directories, as the write later would.
void check_output_file(const std::filesystem::path& path, std::string_view flag);

// The same for an output directory (`--out DIR`): created if missing, and files can be created
// in it.
void check_output_dir(const std::filesystem::path& dir, std::string_view flag);

}  // namespace particles
