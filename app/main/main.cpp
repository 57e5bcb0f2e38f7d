// particles: real-time transparent particles drawn back to front, sorted on the GPU.
#include <exception>
#include <iostream>

#include "app/main/app.hpp"
#include "app/scene/options.hpp"

int main(int argc, char** argv) {
  try {
    const particles::ParseOutcome parsed = particles::parse_options(argc, argv, std::cout, std::cerr);
    if (!parsed.options) return parsed.exit_code;
    return particles::run_app(*parsed.options);
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << '\n';
    return 1;
  }
}
