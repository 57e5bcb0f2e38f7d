// The CPU backend's sorts: the radix sort over any thread count and digit width, and the
// frame-to-frame sort, each against std::stable_sort from the same incoming order, bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/camera.hpp"
#include "core/cpu_frame_sort.hpp"
#include "core/cpu_pipeline.hpp"
#include "core/models/model_names.hpp"
#include "core/parallel_for.hpp"
#include "core/scene_models.hpp"
#include "tests/unit/test_points.hpp"

namespace particles {
namespace {

std::vector<std::uint32_t> stable_from(const std::vector<std::uint32_t>& keys,
                                       std::vector<std::uint32_t> order) {
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return keys[a] < keys[b]; });
  return order;
}

std::vector<std::uint32_t> iota_order(std::size_t n) {
  std::vector<std::uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  return order;
}

TEST(RadixPlan, SortsOnlyTheBitsInWhichKeysDiffer) {
  const RadixPlan galaxy = plan_radix(0xbe000000u, 0xbe000000u + (1u << 24) - 1u);
  EXPECT_EQ(galaxy.floor, 0xbe000000u);
  EXPECT_EQ(galaxy.passes, 3);
  EXPECT_EQ(galaxy.digit_bits, 8);
  EXPECT_EQ(plan_radix(0, (1u << 24) - 1u, 12).passes, 2);
  const RadixPlan quantized = plan_radix(0, 65535);
  EXPECT_EQ(quantized.passes, 2);
  EXPECT_EQ(quantized.digit_bits, 8);
  EXPECT_EQ(plan_radix(7, 7).passes, 0);
  const RadixPlan full = plan_radix(0, 0xffffffffu);
  EXPECT_EQ(full.passes, 3);
  EXPECT_EQ(full.digit_bits, 11);
  EXPECT_EQ(plan_radix(0, 0xffffffffu, 8).passes, 4);
  EXPECT_THROW(plan_radix(0, 1, 0), std::invalid_argument);
  EXPECT_THROW(plan_radix(0, 1, 17), std::invalid_argument);
}

TEST(CpuRadixSort, EqualsStableSortOverThreadCountsAndDigitWidths) {
  std::mt19937 rng(3);  // (32-bit draws)
  // Across the size below which the sort runs on one thread.
  for (std::size_t n : {kRadixSerialBelow - 1, kRadixSerialBelow, kRadixSerialBelow + 3}) {
    std::vector<std::uint32_t> keys(n);
    for (auto& k : keys) {
      const auto r = static_cast<std::uint32_t>(rng());
      k = r % 4 == 0 ? 0u : r % 4 == 1 ? 0xffffffffu : r % 4 == 2 ? r % 50 : r;
    }
    std::vector<std::uint32_t> incoming = iota_order(n);
    std::shuffle(incoming.begin(), incoming.end(), rng);
    const std::vector<std::uint32_t> want = stable_from(keys, incoming);
    SortScratch scratch;
    for (unsigned threads : {1u, 2u, 7u}) {
      for (int digits : {1, 8, 11, 16}) {
        std::vector<std::uint32_t> order = incoming;
        cpu_sort_order(keys, order, scratch, threads, digits);
        ASSERT_EQ(order, want) << n << " keys, " << threads << " threads, " << digits << " bits";
      }
    }
  }
}

TEST(CpuRadixSort, RejectsKeysAndOrderOfDifferentSizes) {
  const std::vector<std::uint32_t> keys(3, 0u);
  std::vector<std::uint32_t> order(4, 0u);
  SortScratch scratch;
  EXPECT_THROW(cpu_sort_order(keys, order, scratch), std::invalid_argument);
  EXPECT_THROW(cpu_sort_from_last_order(keys, order, scratch), std::invalid_argument);
}

// Adversarial incoming orders for the frame-to-frame sort: each must give exactly the order
// std::stable_sort gives from the same incoming order, on one thread and on several.
struct Case {
  const char* name;
  std::vector<std::uint32_t> keys;
  std::vector<std::uint32_t> order;
};

std::vector<Case> adversarial_cases() {
  const std::size_t n = kRadixSerialBelow + 7;  // the radix sort runs over several threads
  std::mt19937 rng(17);
  std::vector<Case> cases;
  std::vector<std::uint32_t> ascending(n);
  std::iota(ascending.begin(), ascending.end(), 1000u);
  cases.push_back({"first frame (index order)", ascending, iota_order(n)});
  std::vector<std::uint32_t> reversed = iota_order(n);
  std::reverse(reversed.begin(), reversed.end());
  cases.push_back({"reversed", ascending, reversed});
  cases.push_back({"all keys equal", std::vector<std::uint32_t>(n, 42u), reversed});
  std::vector<std::uint32_t> duplicates(n);
  for (auto& k : duplicates) k = static_cast<std::uint32_t>(rng() % 3);
  cases.push_back({"three keys, shuffled", duplicates, reversed});
  // Sorted but for neighbours swapped every so often: insertion finishes it.
  std::vector<std::uint32_t> nearly(n);
  for (std::size_t i = 0; i < n; ++i) nearly[i] = static_cast<std::uint32_t>(i / 4);  // ties
  std::vector<std::uint32_t> swapped = iota_order(n);
  for (std::size_t i = 0; i + 8 < n; i += 4099) std::swap(swapped[i], swapped[i + 8]);
  cases.push_back({"nearly sorted, duplicate keys", nearly, swapped});
  // Few descents, but ten elements far from their places: the strided probe sees them, and the
  // radix sort takes the frame without an insertion try.
  std::vector<std::uint32_t> far = iota_order(n);
  std::rotate(far.begin(), far.begin() + 10, far.end());  // the ten smallest keys go last
  for (std::size_t i = 10; i + 4 < n / 2; i += 5003) std::swap(far[i], far[i + 4]);
  cases.push_back({"ten keys from the far end", ascending, far});
  // No key far from its place (the GPU's odd-even case), but each block of 1,024 reversed: more
  // moves than insertion's budget, so the radix sort finishes from where insertion stopped.
  std::vector<std::uint32_t> blocks = iota_order(n);
  for (std::size_t i = 0; i + 1024 <= n; i += 1024) {
    std::reverse(blocks.begin() + static_cast<long>(i),
                 blocks.begin() + static_cast<long>(i + 1024));
  }
  cases.push_back({"blocks of 1,024 reversed", ascending, blocks});
  cases.push_back({"already sorted", ascending, iota_order(n)});
  return cases;
}

TEST(CpuFrameSort, EqualsStableSortFromTheSameOrderOnAdversarialInputs) {
  for (const Case& c : adversarial_cases()) {
    const std::vector<std::uint32_t> want = stable_from(c.keys, c.order);
    for (unsigned threads : {1u, 2u, 5u}) {
      std::vector<std::uint32_t> order = c.order;
      SortScratch scratch;
      cpu_sort_from_last_order(c.keys, order, scratch, threads);
      ASSERT_EQ(order, want) << c.name << ", " << threads << " threads";
    }
  }
}

TEST(CpuFrameSort, TakesTheCheapPathThatFits) {
  const std::vector<Case> cases = adversarial_cases();
  auto path_of = [&](const char* name) {
    for (const Case& c : cases) {
      if (std::strcmp(c.name, name) != 0) continue;
      std::vector<std::uint32_t> order = c.order;
      SortScratch scratch;
      return cpu_sort_from_last_order(c.keys, order, scratch).path;
    }
    ADD_FAILURE() << name;
    return FrameSortPath::radix;
  };
  EXPECT_EQ(path_of("already sorted"), FrameSortPath::already_sorted);
  EXPECT_EQ(path_of("all keys equal"), FrameSortPath::already_sorted);
  EXPECT_EQ(path_of("nearly sorted, duplicate keys"), FrameSortPath::insertion);
  EXPECT_EQ(path_of("ten keys from the far end"), FrameSortPath::radix);
  EXPECT_EQ(path_of("blocks of 1,024 reversed"), FrameSortPath::radix);
  EXPECT_EQ(path_of("reversed"), FrameSortPath::radix);
}

TEST(CpuFrameSort, EqualsStableSortOnSceneFrames) {
  // Consecutive frames of both models, exact and coarse quantized keys (many ties), each sorted
  // from the frame before's order as the auto algorithm does.
  CameraPose pose;
  pose.distance = 12.0f;
  for (Model model : {Model::galaxy, Model::fountain}) {
    for (KeyMode mode : {KeyMode::exact, KeyMode::quantized}) {
      ModelParams params;
      params.model = model;
      CpuPipeline pipeline;
      pipeline.reset(params, 70001);
      std::vector<std::uint32_t> last(pipeline.order().begin(), pipeline.order().end());
      SortScratch scratch;
      for (int frame = 0; frame < 6; ++frame) {
        pose.yaw_deg = 3.0f * static_cast<float>(frame);
        FrameSettings settings;
        settings.view = depth_frame(camera_matrices(pose, 16.0f / 9.0f, 0.1f, 1000.0f));
        settings.algorithm = Algorithm::automatic;
        settings.key_mode = mode;
        settings.key_bits = 10;
        if (frame == 4) settings.dt = 0.0f;  // paused: the order may already be sorted
        pipeline.run_frame(settings);
        const std::vector<std::uint32_t> keys(pipeline.keys().begin(), pipeline.keys().end());
        const std::vector<std::uint32_t> got(pipeline.order().begin(), pipeline.order().end());
        const std::vector<std::uint32_t> expected = stable_from(keys, last);
        if (pipeline.last_auto_stint() == SortPath::radix) {  // a radix stint's frame
          std::vector<std::uint32_t> identity(keys.size());
          std::iota(identity.begin(), identity.end(), 0u);
          ASSERT_EQ(got, stable_from(keys, identity)) << "frame " << frame;
        } else {
          ASSERT_EQ(got, expected) << "frame " << frame;
        }
        for (unsigned threads : {1u, 3u}) {
          std::vector<std::uint32_t> order = last;
          cpu_sort_from_last_order(keys, order, scratch, threads);
          ASSERT_EQ(order, expected) << "frame " << frame << ", " << threads << " threads";
        }
        last = got;
      }
    }
  }
}

// Every model: the fused step runs one loop per model (its own step and colour inlined, the
// colours packed in a vector loop), the stages apart the runtime switch per particle.
TEST(CpuStages, TheFusedStepEqualsTheStagesOneByOne) {
  for (Model model : kAllModels) {
    ModelParams params;
    params.model = model;
    params = test::with_test_points(params);
    const std::size_t n = 100003;
    std::vector<ParticleState> fused(n), apart(n);
    for (std::size_t i = 0; i < n; ++i) {
      fused[i] = apart[i] = model_init(params, static_cast<std::uint32_t>(i));
    }
    CameraPose pose;
    const DepthFrame view = depth_frame(camera_matrices(pose, 1.5f, 0.1f, 1000.0f));
    std::vector<ParticleVertex> v_fused(n), v_apart(n);
    std::vector<std::uint32_t> k_fused(n), k_apart(n);
    const std::size_t scales = model_scales_sprites(model) ? n : 0u;
    std::vector<float> s_fused(scales), s_apart(scales);
    for (float dt : {0.02f, 0.0f, 0.7f}) {
      const Extents e = cpu_step_particles(params, fused, dt, view, v_fused, k_fused, s_fused);
      cpu_simulate(params, apart, dt);
      cpu_write_vertices(params, apart, v_apart, s_apart);
      ASSERT_EQ(s_fused, s_apart) << to_string(model);
      const Extents want = cpu_extents(apart, view);
      cpu_depth_keys(apart, view, KeyMode::exact, 16, want, k_apart);
      ASSERT_EQ(0, std::memcmp(fused.data(), apart.data(), n * sizeof(ParticleState)))
          << to_string(model);
      ASSERT_EQ(0, std::memcmp(v_fused.data(), v_apart.data(), n * sizeof(ParticleVertex)))
          << to_string(model);
      ASSERT_EQ(0, std::memcmp(&e, &want, sizeof e));
      ASSERT_EQ(k_fused, k_apart);
      for (int bits : {8, 16, 32}) {
        std::vector<std::uint32_t> q = k_fused;
        cpu_quantize_keys(e, bits, q);
        cpu_depth_keys(apart, view, KeyMode::quantized, bits, want, k_apart);
        ASSERT_EQ(q, k_apart) << bits << " bits";
      }
      cpu_depth_keys(apart, view, KeyMode::exact, 16, want, k_apart);
    }
  }
}

// A model that sizes its sprites needs one scale per particle: fewer are refused, naming both.
TEST(CpuStages, TheFusedStepRefusesMissingSpriteScales) {
  ModelParams params;
  params.model = Model::smoke;
  std::vector<ParticleState> state(10);
  for (std::uint32_t i = 0; i < 10; ++i) state[i] = model_init(params, i);
  std::vector<ParticleVertex> vertices(10);
  std::vector<std::uint32_t> keys(10);
  std::vector<float> scales(9);
  try {
    cpu_step_particles(params, state, 0.01f, DepthFrame{}, vertices, keys, scales);
    FAIL() << "accepted 9 sprite scales for 10 particles";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("9 sprite scales for 10 particles"), std::string::npos)
        << e.what();
  }
}

// Sets PARTICLES_THREADS for one scope (nullptr: unset), then puts back the caller's value.
class ThreadsVariable {
 public:
  explicit ThreadsVariable(const char* value) {
    if (const char* was = std::getenv(kThreadsVariable)) saved_ = was;
    set(value);
  }
  ~ThreadsVariable() { set(saved_ ? saved_->c_str() : nullptr); }

 private:
  static void set(const char* value) {
    if (value != nullptr) {
      ::setenv(kThreadsVariable, value, 1);
    } else {
      ::unsetenv(kThreadsVariable);
    }
  }
  std::optional<std::string> saved_;
};

TEST(ParallelThreads, ReadTheThreadsVariable) {
  {
    ThreadsVariable set("3");
    EXPECT_EQ(parallel_threads(), 3u);
  }
  {
    ThreadsVariable unset(nullptr);
    EXPECT_EQ(parallel_threads(), available_cores());
  }
  EXPECT_EQ(parse_thread_count("1"), 1u);
  EXPECT_EQ(parse_thread_count("1024"), 1024u);
  for (const char* bad : {"", "0", "-2", "2x", " 2", "1025", "99999999999"}) {
    try {
      parse_thread_count(bad);
      ADD_FAILURE() << "accepted \"" << bad << "\"";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("PARTICLES_THREADS"), std::string::npos) << e.what();
    }
  }
  ThreadsVariable set("many");
  EXPECT_THROW(parallel_threads(), std::invalid_argument);
}

}  // namespace
}  // namespace particles
