#pragma once
// Rolling statistics over the last N frames of one timed quantity.
#include <algorithm>
#include <cstddef>
#include <vector>

namespace particles {

struct Summary {
  double min = 0.0, median = 0.0, p99 = 0.0, max = 0.0, mean = 0.0;
  double p10 = 0.0, p90 = 0.0;  // the spread the bench chart draws on each bar
  std::size_t samples = 0;
};

// Summary of a set of samples (copied: the caller's order is kept).
inline Summary summarize(std::vector<double> samples) {
  Summary s;
  s.samples = samples.size();
  if (samples.empty()) return s;
  std::sort(samples.begin(), samples.end());
  auto at = [&](double q) {
    const auto i = static_cast<std::size_t>(q * static_cast<double>(samples.size() - 1) + 0.5);
    return samples[std::min(i, samples.size() - 1)];
  };
  s.min = samples.front();
  s.max = samples.back();
  s.median = at(0.5);
  s.p99 = at(0.99);
  s.p10 = at(0.10);
  s.p90 = at(0.90);
  double total = 0.0;
  for (double v : samples) total += v;
  s.mean = total / static_cast<double>(samples.size());
  return s;
}

class RollingSeries {
 public:
  RollingSeries() : RollingSeries(240) {}
  explicit RollingSeries(std::size_t capacity) : values_(capacity, 0.0f) {}
  void push(float v) {
    values_[next_] = v;
    next_ = (next_ + 1) % values_.size();
    filled_ = std::min(filled_ + 1, values_.size());
  }
  // Oldest first, for plotting.
  std::vector<float> ordered() const {
    std::vector<float> out;
    out.reserve(filled_);
    const std::size_t start = filled_ < values_.size() ? 0 : next_;
    for (std::size_t i = 0; i < filled_; ++i) out.push_back(values_[(start + i) % values_.size()]);
    return out;
  }
  Summary summary() const {
    const auto v = ordered();
    return summarize(std::vector<double>(v.begin(), v.end()));
  }
  float latest() const {
    return filled_ ? values_[(next_ + values_.size() - 1) % values_.size()] : 0.0f;
  }

 private:
  std::vector<float> values_;
  std::size_t next_ = 0;
  std::size_t filled_ = 0;
};

}  // namespace particles
