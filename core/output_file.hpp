#pragma once
// Every file the program writes (screenshots, reports, bench and soak results, recorded frames,
// the P key's screenshots) goes through this module, which keeps to five rules (also in
// docs/reliability.md, "Output files"):
//  1. Written whole or not at all: a temporary file beside the target, renamed over it.
//  2. Only onto a regular file or a new name. An existing directory, device node, FIFO or socket
//     is refused, and so is a symbolic link: renaming over a link would replace the link and
//     leave its target alone, and writing through it would change a file the command line does
//     not name, so neither does what a user who gave the link could expect; the message says to
//     name the target itself. (Folders given as output directories may be links: files are made
//     inside them, never over them.)
//  3. Never onto a file the run reads (its scene, the scene's point cloud, a bench file).
//  4. Checked before the run's first frame, so a bad path costs nothing.
//  5. No two outputs of a run are one file, nor is a file output inside a folder output.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace particles {

// A file the run reads, which no output may replace: `what` names it in the refusal
// ("the scene file", "the point cloud of scene 'bunny'").
struct RunInput {
  std::filesystem::path path;
  std::string what;
};

// Whether write_file_atomically may replace a file already at the path.
enum class Overwrite {
  replace,  // an earlier output of the same name (a report run twice)
  refuse,   // a name the program chose (recorded frames, the P key): never someone's file
};

// Writes `bytes` to `path` through a temporary file in the same directory
// (".NAME.tmp-PID-N", a name no other file has: it is created exclusively), flushed to the disk
// and then renamed over `path`: a write that fails or is interrupted half way (a full disk, a
// signal, a crash) leaves the earlier file or none, never a truncated one. Creates missing
// parent directories. Refuses a `path` that exists and is not a regular file (rule 2), and with
// Overwrite::refuse one that exists at all. Throws std::runtime_error naming `path` and the
// reason; the temporary file is removed on failure.
void write_file_atomically(const std::filesystem::path& path, std::string_view bytes,
                           Overwrite overwrite = Overwrite::replace);

// Throws std::runtime_error starting with `flag` ("--screenshot: ...") unless `path` can be
// written under the rules above: a file name (not empty, not ending in '/'), nothing there or a
// regular file that is none of `inputs`, its parent directory exists or can be created, and a
// file can be created there. Creates missing parent directories, as the write later would.
void check_output_file(const std::filesystem::path& path, std::string_view flag,
                       const std::vector<RunInput>& inputs = {});

// Throws std::runtime_error starting with `flag` when `path` is the same file as one of
// `inputs` (std::filesystem::equivalent: another spelling or a hard link counts); the part of
// check_output_file that a scene loaded later (the window's scene picker) is checked with again.
void check_not_an_input(const std::filesystem::path& path, std::string_view flag,
                        const std::vector<RunInput>& inputs);

// One output of a run as the user named it, for check_distinct_outputs.
struct NamedOutput {
  std::filesystem::path path;
  std::string flag;        // "--screenshot"
  bool directory = false;  // a folder the run fills with files of its own (--record)
};

// Throws std::runtime_error naming both flags when two outputs are one file (the same path in
// two spellings, a hard link, or a link in a parent folder), or a file output lies inside a
// folder output: the later write would replace the earlier one's file. Empty paths are skipped.
// Creates nothing, so it can run before check_output_file makes any folder: links in the parts
// that exist are resolved, the rest is compared as written, normalised.
void check_distinct_outputs(const std::vector<NamedOutput>& outputs);

// The same for an output directory (`--out DIR`): not empty, created if missing, files can be
// created in it, and each of `file_names` (the files the run will write there) passes
// check_output_file.
void check_output_dir(const std::filesystem::path& dir, std::string_view flag,
                      const std::vector<std::string>& file_names = {},
                      const std::vector<RunInput>& inputs = {});

// A directory the run fills with files of its own naming (--record DIR): created with its
// parents when missing, else it must be an empty directory, so that nothing the run writes or
// later cleans up can be someone else's file. Returns it absolute and normalised. Throws
// std::runtime_error starting with `flag`, suggesting a fresh folder when it is not empty.
std::filesystem::path prepare_empty_output_dir(const std::filesystem::path& dir,
                                               std::string_view flag);

// `dir`/STEM.EXT, or STEM-2.EXT, STEM-3.EXT, ... the first name nothing has yet and none of
// `reserved` is (in any spelling): where a key press writes its file without replacing an
// earlier run's, or taking the name of a file the run will write at its end (--screenshot).
std::filesystem::path unused_file_name(const std::filesystem::path& dir, std::string_view stem,
                                       std::string_view extension,
                                       const std::vector<std::filesystem::path>& reserved = {});

}  // namespace particles
