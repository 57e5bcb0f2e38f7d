#pragma once
// What the user chose for the frames: the sort, the renderer, the keys, the draw order, the
// comparison view and how the stages are timed. One struct, with its defaults written here once,
// that the command line's options, the running app's state, the statistics' configuration, the
// bench's runs and the soak's segments all hold as their `choices`, and that the frame runner
// turns into the backend's FrameSettings.
//
// Not here: the scene, the particle count and the image size. Each of their holders means a
// different thing by them (a file to load or a loaded scene; a count given or the scene's own;
// the window asked for or the framebuffer the frame is drawn at; the bench's and soak's lists of
// each), so they stay beside the choices in the structs that need them.
#include "core/algorithm.hpp"
#include "core/compare_mode.hpp"
#include "core/depth_keys.hpp"
#include "core/draw_order.hpp"
#include "core/renderer_kind.hpp"

namespace particles {

// Bits of a quantized key (FrameChoices::key_bits) unless the user asks for others.
inline constexpr int kDefaultKeyBits = 16;
// Frames per stage-timed frame by default (FrameChoices::stage_sample_period).
inline constexpr int kDefaultStageSamplePeriod = 8;

struct FrameChoices {
  Algorithm algorithm = Algorithm::radix;
  // The app and the bench pick the backend's own (default_renderer) unless the user names one.
  RendererKind renderer = RendererKind::raster;
  KeyMode key_mode = KeyMode::exact;
  int key_bits = kDefaultKeyBits;  // quantized keys only
  // exact, or an approximation (core/draw_order.hpp); unsorted draws in index order.
  DrawOrder order = DrawOrder::exact;
  int order_period = kDefaultOrderPeriod;  // stale order only: frames per sort
  // The comparison view: the exact order against `order`, split or as a heat map of where the
  // two orders' images differ.
  bool compare = false;
  CompareMode compare_mode = CompareMode::split;  // compare only
  // CUDA backend: simulate, extents and keys as one kernel, timed as "simulate"; false runs the
  // stages apart, for the per-stage breakdown. Same results either way.
  bool fuse_stages = true;
  // Every stage_sample_period-th frame times each stage, the others the pipeline's span alone
  // (see FrameSettings::stage_sample_period); 1: every frame times its stages.
  int stage_sample_period = kDefaultStageSamplePeriod;

  bool operator==(const FrameChoices&) const = default;
};

// The choices with those that do not apply cleared to 0 (key bits of exact keys, the period of
// an order that is not stale) or to their default (the mode of no comparison), so that two
// choices that draw the same frames compare equal: changing a setting that does not apply
// changes nothing.
constexpr FrameChoices applicable_only(FrameChoices c) {
  if (c.key_mode != KeyMode::quantized) c.key_bits = 0;
  if (c.order != DrawOrder::stale) c.order_period = 0;
  if (!c.compare) c.compare_mode = CompareMode::split;
  return c;
}

}  // namespace particles
