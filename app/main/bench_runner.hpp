#pragma once
#include <string>

#include "app/main/bench_config.hpp"

namespace particles {

// Runs the bench matrix headless, writes frames.csv, summary.json and chart.svg into
// config.out_dir, prints the summary table; returns the exit code (non-zero if any frame failed
// verification). `command` is recorded in the outputs.
int run_bench(const BenchConfig& config, const std::string& command);

}  // namespace particles
