#pragma once
// Runs one nasty case and judges it: made in a fresh folder, the binary started there with a
// time limit, and afterwards the folder compared with what it held before.
#include <string>

#include "tools/nasty_inputs/nasty_case.hpp"

namespace nasty {

struct Verdict {
  enum class Outcome { ran, refused, crashed, hung };
  Outcome outcome = Outcome::ran;
  int exit_code = -1;               // when it exited
  int signal = 0;                   // when a signal ended it
  bool message = false;             // a refusal said "error" (a refusal without one is unexplained)
  bool black = false;               // its screenshot is one colour from edge to edge
  bool black_said = false;          // ... and the run said so (a note, or an error exit)
  bool missing_screenshot = false;  // exit 0 without the screenshot it was asked for
  std::string touched;              // what changed in its folder outside the named outputs; "" none
  std::string output;               // stdout and stderr, cut to a few KB
  double seconds = 0.0;
};

// `work` is a folder of the case's own (created here, removed afterwards unless `keep`).
Verdict run_case(const Case& c, const std::string& binary, const std::string& work,
                 double time_limit_s, bool keep);

}  // namespace nasty
