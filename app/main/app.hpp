#pragma once
#include "app/scene/options.hpp"

namespace particles {

// Runs the demo as the options say (window or headless); returns the process exit code.
// Throws on unrecoverable errors; main turns them into a message and a non-zero exit.
int run_app(const Options& options);

}  // namespace particles
