#pragma once
// The HUD's words and numbers as plain functions, so that what the panel says is a test: particle
// counts, the stage timings' cells and the graphs' captions.
#include <cstdint>
#include <string>

#include "app/main/frame_stats.hpp"

namespace particles {

// "64K" and "1M" for whole numbers of K (1024) and M, else the number with thousands separators,
// "200,000", so that the count list's entries read alike side by side.
std::string count_label(std::uint32_t n);

// A stage's median for the HUD: compact_ms's digits, or kInSimulateText where the stage's work
// ran inside simulate's pass (StageTimes::in_simulate) and its own 0 would read as free.
std::string stage_time_text(double ms, bool in_simulate);

// A graph's caption, "frame  med 16.7 ms  p99 17.1 ms": its name and its median and p99 with
// their unit.
std::string graph_caption(const std::string& name, const Summary& s);

}  // namespace particles
