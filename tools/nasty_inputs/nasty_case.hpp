#pragma once
// The nasty-input family (issue 64): bad inputs a hostile but realistic user gives the real
// `particles` binary, as cases to run headless on the CPU backend. A case is a command line and
// the files it needs, made in a folder of its own that the run starts in; everything else the
// run may create there is named, so that a file touched outside what the user named is seen.
#include <string>
#include <vector>

namespace nasty {

// A file the case folder holds before the run.
struct CaseFile {
  enum class Kind { regular, directory, fifo, symlink, char_device };
  std::string name;  // relative to the case folder
  Kind kind = Kind::regular;
  std::string bytes;  // regular: the contents; symlink: the target
};

struct Case {
  std::string family;             // "scene", "ply", "app flag", "bench flag", "soak flag"
  std::string what;               // one line: which input is bad and how
  std::vector<std::string> args;  // after the binary
  std::vector<CaseFile> files;
  // What the run may create or replace in its folder (a file, or a folder and all inside it):
  // the outputs its command line names.
  std::vector<std::string> outputs;
  // The run writes this screenshot (relative) when it exits 0: judged for a silent black frame.
  std::string screenshot;
};

// Where the generators find what they vary.
struct Sources {
  std::string scenes_dir;  // the shipped scenes/*.toml
  std::string cloud;       // a small valid PLY file (absolute), for points scenes
  bool root = false;       // device nodes can be made (mknod) in a case folder
};

// Every shipped scene with each key given each bad value (numbers: 0, -1, +-1e30, nan, +-inf,
// 2^63 - 1, 1e-300; strings, arrays, tables; arrays' elements one by one), each key deleted,
// an unknown key in each table, and whole files that are no scene.
std::vector<Case> scene_cases(const Sources& sources);
// Broken and hostile PLY files, each loaded by a points scene.
std::vector<Case> ply_cases(const Sources& sources);
// Bad values for every flag of the app, `bench` and `soak` that takes one.
std::vector<Case> flag_cases(const Sources& sources);

}  // namespace nasty
