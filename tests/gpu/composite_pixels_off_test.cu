// The order error's GPU count (cuda/composite/pixels_off.hpp) against the CPU count
// (core/pixels_off.hpp) on the same float images: the counts must be equal, not close, on
// hand-made pixels at the thresholds and on random images of many sizes (a partial block, one
// block, many blocks striding). Also how counts come back: polled as they arrive, or waited for.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <random>
#include <vector>

#include "core/composite/cpu_compositor.hpp"
#include "core/pixels_off.hpp"
#include "cuda/common/check.hpp"
#include "cuda/composite/pixels_off.hpp"
#include "tests/gpu/device_copies.hpp"
#include "tests/gpu/pipeline_test_util.hpp"

namespace particles::cuda {
namespace {

const PixelF kBackground = premultiplied(10.0f / 255.0f, 20.0f / 255.0f, 30.0f / 255.0f, 1.0f);

PixelF bytes(std::uint32_t r, std::uint32_t g, std::uint32_t b) {
  return pixel_of_rgba8(r | g << 8 | b << 16 | 255u << 24);
}

CompositeImage image_of(std::vector<PixelF> pixels) {
  CompositeImage image;
  image.width = static_cast<int>(pixels.size());
  image.height = 1;
  image.pixels = std::move(pixels);
  return image;
}

// The kernel's count of a against b, waited for.
PixelsOff gpu_count(const CompositeImage& a, const CompositeImage& b, const PixelF& background) {
  const auto da = test::to_device(a.pixels);
  const auto db = test::to_device(b.pixels);
  DeviceBuffer<PackedPixelsOff> counts(1);
  const Stream stream = Stream::create();
  enqueue_count_pixels_off(da.data(), db.data(), a.pixels.size(), background, counts.data(),
                           stream.get());
  CUDA_CHECK(cudaStreamSynchronize(stream.get()));
  return unpack_pixels_off(test::to_host(counts.data(), 1)[0]);
}

void expect_same_counts(const CompositeImage& a, const CompositeImage& b,
                        const PixelF& background) {
  const PixelsOff cpu = count_pixels_off(a, b, background);
  const PixelsOff gpu = gpu_count(a, b, background);
  EXPECT_EQ(gpu.lit, cpu.lit) << a.pixels.size() << " pixels";
  EXPECT_EQ(gpu.off, cpu.off) << a.pixels.size() << " pixels";
}

class CompositePixelsOff : public ::testing::Test {
 protected:
  void SetUp() override { REQUIRE_CUDA_DEVICE(); }
};

TEST_F(CompositePixelsOff, IdenticalImagesHaveNothingOff) {
  const CompositeImage a = image_of({bytes(200, 20, 30), bytes(10, 120, 30), kBackground});
  const PixelsOff gpu = gpu_count(a, a, kBackground);
  EXPECT_EQ(gpu.lit, 2u);
  EXPECT_EQ(gpu.off, 0u);
  expect_same_counts(a, a, kBackground);
}

TEST_F(CompositePixelsOff, HandMadePixelsAtTheThresholds) {
  // Pixel by pixel: unlit (the background), unlit (8 from it), lit and equal, lit and 9 apart
  // (off), lit and 8 apart (not off), lit by the second image alone (off), alpha alone apart.
  const CompositeImage a =
      image_of({kBackground, bytes(18, 20, 30), bytes(200, 20, 30), bytes(200, 20, 30),
                bytes(200, 20, 30), kBackground, bytes(10, 120, 30)});
  std::vector<PixelF> b = {kBackground,        kBackground,        bytes(200, 20, 30),
                           bytes(191, 20, 30), bytes(192, 20, 30), bytes(10, 20, 100),
                           bytes(10, 120, 30)};
  b.back().a = 0.0f;
  const PixelsOff gpu = gpu_count(a, image_of(b), kBackground);
  EXPECT_EQ(gpu.lit, 5u);
  EXPECT_EQ(gpu.off, 2u);
  expect_same_counts(a, image_of(b), kBackground);
}

TEST_F(CompositePixelsOff, OnePixelOffAmongManyUnlit) {
  // Larger than a block, so that the off pixel's block is not the first.
  std::vector<PixelF> a(5000, kBackground), b(5000, kBackground);
  a[4321] = bytes(200, 20, 30);
  b[4321] = bytes(191, 20, 30);
  a[17] = bytes(200, 20, 30);
  b[17] = bytes(192, 20, 30);  // 8 apart: lit, not off
  const PixelsOff gpu = gpu_count(image_of(a), image_of(b), kBackground);
  EXPECT_EQ(gpu.lit, 2u);
  EXPECT_EQ(gpu.off, 1u);
}

TEST_F(CompositePixelsOff, RandomImagesCountAsOnTheCpu) {
  std::mt19937 rng(2024);
  // Premultiplied floats near the thresholds and far from them, some out of range, and a
  // transparent background as the compositor's own is.
  std::uniform_real_distribution<float> channel(-0.05f, 1.05f);
  std::uniform_int_distribution<int> nudge(-10, 10);
  const PixelF clear{};
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{255}, std::size_t{256},
                        std::size_t{1000}, std::size_t{1} << 20, (std::size_t{1} << 21) + 7}) {
    std::vector<PixelF> a(n), b(n);
    for (std::size_t i = 0; i < n; ++i) {
      a[i] = {channel(rng), channel(rng), channel(rng), channel(rng)};
      // Half the pixels a few bytes from the first image's, so both sides of 8/255 are hit.
      b[i] = i % 2 == 0 ? PixelF{a[i].r + float(nudge(rng)) / 255.0f,
                                 a[i].g + float(nudge(rng)) / 255.0f, a[i].b, a[i].a}
                        : PixelF{channel(rng), channel(rng), channel(rng), channel(rng)};
      if (i % 7 == 0) a[i] = b[i] = i % 14 == 0 ? kBackground : clear;
    }
    expect_same_counts(image_of(a), image_of(b), kBackground);
    expect_same_counts(image_of(a), image_of(b), clear);
  }
}

TEST_F(CompositePixelsOff, CountsArePolledInOrderOrWaitedFor) {
  const CompositeImage a = image_of({bytes(200, 20, 30), bytes(200, 20, 30)});
  const CompositeImage b = image_of({bytes(200, 20, 30), bytes(100, 20, 30)});
  const auto da = test::to_device(a.pixels);
  const auto db = test::to_device(b.pixels);
  const Stream stream = Stream::create();
  PixelsOffCounter counter;
  EXPECT_FALSE(counter.poll());
  EXPECT_FALSE(counter.wait_newest());
  // Two counts: the first of one pixel (lit, not off), the second of both (one off).
  ASSERT_TRUE(counter.enqueue(da.data(), db.data(), 1, kBackground, stream.get()));
  ASSERT_TRUE(counter.enqueue(da.data(), db.data(), 2, kBackground, stream.get()));
  CUDA_CHECK(cudaStreamSynchronize(stream.get()));
  const std::optional<PixelsOff> first = counter.poll();
  ASSERT_TRUE(first);
  EXPECT_EQ(first->lit, 1u);
  EXPECT_EQ(first->off, 0u);
  const std::optional<PixelsOff> second = counter.poll();
  ASSERT_TRUE(second);
  EXPECT_EQ(second->lit, 2u);
  EXPECT_EQ(second->off, 1u);
  EXPECT_FALSE(counter.poll());

  // Waiting returns the newest and drops the older ones; slots free again after reads.
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(counter.enqueue(da.data(), db.data(), 1, kBackground, stream.get()));
  }
  ASSERT_TRUE(counter.enqueue(da.data(), db.data(), 2, kBackground, stream.get()));
  EXPECT_FALSE(counter.enqueue(da.data(), db.data(), 2, kBackground, stream.get()));  // all full
  const std::optional<PixelsOff> newest = counter.wait_newest();
  ASSERT_TRUE(newest);
  EXPECT_EQ(newest->lit, 2u);
  EXPECT_EQ(newest->off, 1u);
  EXPECT_FALSE(counter.poll());

  // Forgotten counts (a reset) are never read.
  ASSERT_TRUE(counter.enqueue(da.data(), db.data(), 2, kBackground, stream.get()));
  counter.forget();
  CUDA_CHECK(cudaStreamSynchronize(stream.get()));
  EXPECT_FALSE(counter.poll());
}

}  // namespace
}  // namespace particles::cuda
