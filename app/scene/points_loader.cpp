// A points scene's cloud: [model.points]' file read (ply_reader.hpp), turned, scaled, checked
// against the world's box and coloured, then the counts defaulted to its size. Runs after the
// colours and the counts are read, since it takes both as defaults.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <utility>
#include <vector>

#include "app/scene/ply_reader.hpp"
#include "app/scene/printable.hpp"
#include "app/scene/scene_reader.hpp"
#include "core/backend_limits.hpp"

namespace particles::scene_reading {
namespace {

// The world's coordinates, as a point cloud's points must lie within them.
constexpr Range kWorldBox{-kWorld, kWorld, false, false};

// Prints "file: N of M points" over itself on a terminal, for clouds that take a while.
class LoadProgress {
 public:
  explicit LoadProgress(std::string name) : name_(std::move(name)) {}
  void operator()(std::uint64_t done, std::uint64_t total) {
    if (total < (1u << 20) || !isatty(STDERR_FILENO)) return;
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    std::fprintf(stderr, "\r%s: %llu of %llu points (%.0f%%), %.1f s", printable(name_).c_str(),
                 static_cast<unsigned long long>(done), static_cast<unsigned long long>(total),
                 100.0 * static_cast<double>(done) / static_cast<double>(total), seconds);
    if (done == total) std::fputc('\n', stderr);
    std::fflush(stderr);
  }

 private:
  std::string name_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

struct Bounds {
  Vec3 lo, hi;
};

Bounds bounds_of(const std::vector<PointRecord>& points) {
  Vec3 lo = {points[0].x, points[0].y, points[0].z}, hi = lo;
  for (const PointRecord& p : points) {
    lo = {std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z)};
    hi = {std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z)};
  }
  return {lo, hi};
}

// Centred on the origin, the longest side `fit` long (a single point stays a point).
void fit_points(std::vector<PointRecord>& points, const Bounds& b, float fit) {
  const Vec3 lo = b.lo, hi = b.hi;
  const double cx = 0.5 * (double{lo.x} + hi.x), cy = 0.5 * (double{lo.y} + hi.y),
               cz = 0.5 * (double{lo.z} + hi.z);
  const double side = std::max({double{hi.x} - lo.x, double{hi.y} - lo.y, double{hi.z} - lo.z});
  const double scale = side > 0.0 ? fit / side : 1.0;
  for (PointRecord& p : points) {
    p.x = static_cast<float>((p.x - cx) * scale);
    p.y = static_cast<float>((p.y - cy) * scale);
    p.z = static_cast<float>((p.z - cz) * scale);
  }
}

// The file's colours, or colors.inner at the bottom to colors.outer at the top; then alpha.
void colour_points(std::vector<PointRecord>& points, const Bounds& b, bool file_has_color,
                   const ModelParams& params, float alpha) {
  const float height = b.hi.y - b.lo.y;
  for (PointRecord& p : points) {
    Color c = file_has_color ? unpack_rgba8(p.rgba8)
                             : mix(params.color_inner, params.color_outer,
                                   height > 0.0f ? (p.y - b.lo.y) / height : 0.0f);
    c.a *= alpha;
    p.rgba8 = pack_rgba8(c);
  }
}

}  // namespace

void SceneReader::load_points(const toml::table& root, const toml::table& t, SceneDesc& d) const {
  constexpr std::string_view s = "model.points";
  const toml::node* file = t.get("file");
  if (!file) fail(t.source(), "missing key model.points.file: the PLY file to load");
  if (!file->is_string()) wrong_type(*file, "model.points.file", "a string (a path)");
  const std::string up = string_choice(t, s, "up", {"y", "z"}, "y");
  float fit = 0.0f, alpha = 1.0f;
  get(t, s, "fit", fit);
  get(t, s, "alpha", alpha);

  // Relative to the scene file.
  const std::filesystem::path named = file->as_string()->get();
  const std::filesystem::path path =
      named.is_absolute() ? named : std::filesystem::path(source_).parent_path() / named;
  d.points_path = path.string();
  PlyCloud cloud;
  try {
    LoadProgress progress(path.string());
    cloud = read_ply(path, [&](std::uint64_t done, std::uint64_t total) { progress(done, total); });
  } catch (const PlyError& e) {
    fail(file->source(), "model.points.file: " + std::string(e.what()));
  }
  std::vector<PointRecord>& points = cloud.points;

  // Up: a z-up file (most scanners and CAD) turned so its z is the scene's +y.
  if (up == "z") {
    for (PointRecord& p : points) p = {p.x, p.z, -p.y, p.rgba8};
  }
  Bounds b = bounds_of(points);
  if (fit > 0.0f) {
    fit_points(points, b, fit);
    b = bounds_of(points);
  }
  // The motions turn and swell the cloud about its centre: within world coordinates they stay
  // finite, as every model's positions do.
  if (std::min({b.lo.x, b.lo.y, b.lo.z}) < -kWorld || std::max({b.hi.x, b.hi.y, b.hi.z}) > kWorld) {
    fail(file->source(), "model.points.file: the cloud reaches beyond " + kWorldBox.describe() +
                             " in x, y and z (from " + format_vec3(b.lo) + " to " +
                             format_vec3(b.hi) + "): set model.points.fit to scale it");
  }
  d.params.points.centre = {0.5f * (b.lo.x + b.hi.x), 0.5f * (b.lo.y + b.hi.y),
                            0.5f * (b.lo.z + b.hi.z)};
  colour_points(points, b, cloud.has_color, d.params, alpha);

  // The counts default to the cloud's (the CPU's within its range); a scene's own counts
  // subsample or repeat it (core/point_cloud.hpp).
  const toml::table* particles = root["particles"].as_table();
  const auto n = static_cast<std::uint32_t>(points.size());
  if (!particles || !particles->contains("count")) d.count = n;
  if (!particles || !particles->contains("cpu_count")) d.cpu_count = std::min(n, kCpuMaxCount);
  auto shared = std::make_shared<const std::vector<PointRecord>>(std::move(points));
  d.params.points.records = shared->data();
  d.params.points.record_count = n;
  d.points = std::move(shared);
}

}  // namespace particles::scene_reading
