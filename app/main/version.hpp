#pragma once
// `particles --version`: what was built and what can run here.
#include <string>

namespace particles {

// "particles 0.1\ncommit 6215f75 (when configured)\nbuild type Release\nCUDA architectures: 90\n
// backends: cpu available; cuda unavailable: no usable CUDA driver: ...", probing the CUDA
// device (no backend is made).
std::string version_text();

}  // namespace particles
