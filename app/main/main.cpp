// particles: real-time transparent particles drawn back to front, sorted on the GPU.
// `particles [flags]` runs the demo; `particles bench [flags]` runs the benchmark matrix;
// `particles soak [flags]` runs the long switching and leak check.
#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>
#include <sstream>

#include "app/main/app.hpp"
#include "app/main/bench_cli.hpp"
#include "app/main/bench_runner.hpp"
#include "app/main/input.hpp"
#include "app/main/soak.hpp"
#include "app/main/version.hpp"
#include "app/scene/options.hpp"
#include "app/scene/printable.hpp"

int main(int argc, char** argv) {
  try {
    particles::Options options;
    particles::BenchFlags bench_flags;
    const auto cli = particles::make_cli(options);
    // Version, commit, build type, CUDA architectures and which backends can run here.
    cli->set_version_flag(
        "--version", [] { return particles::version_text(); },
        "Print the version, commit, build type, CUDA architectures and which "
        "backends can run here, then exit");
    cli->footer(cli->get_footer() + "\n\nKeys in the window: " + particles::key_help());
    CLI::App* bench = particles::add_bench_command(*cli, bench_flags);
    particles::SoakFlags soak_flags;
    CLI::App* soak = particles::add_soak_command(*cli, soak_flags);
    if (const int code = particles::run_cli(*cli, argc, argv, std::cout, std::cerr); code >= 0) {
      return code;
    }
    if (bench->parsed()) {
      std::ostringstream command;
      for (int i = 0; i < argc; ++i) command << (i ? " " : "") << argv[i];
      return particles::run_bench(particles::resolve_bench_config(bench_flags), command.str());
    }
    if (soak->parsed()) {
      std::ostringstream command;
      for (int i = 0; i < argc; ++i) command << (i ? " " : "") << argv[i];
      return particles::run_soak(particles::resolve_soak_config(soak_flags), command.str());
    }
    if (const int code = particles::finish_options(options, std::cerr); code != 0) return code;
    return particles::run_app(options);
  } catch (const std::exception& e) {
    // Messages quote the user's paths and files: escaped, never obeyed by the terminal.
    std::cerr << "error: " << particles::printable(e.what()) << '\n';
    return 1;
  }
}
