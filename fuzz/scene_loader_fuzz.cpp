// libFuzzer target: scene text through parse_scene, the loader behind load_scene. Every input
// must either load or be refused with a SceneError; another exception, a crash, a sanitizer
// report or a hang is a finding. So is a scene the loader accepts that the models cannot run:
// a few of its particles are started and stepped, and each must stay finite.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "app/scene/scene_loader.hpp"
#include "core/scene_models.hpp"

namespace {

void require(bool condition) {
  if (!condition) std::abort();  // libFuzzer keeps the input that got here
}

bool finite(const particles::ParticleState& s) {
  return std::isfinite(s.px) && std::isfinite(s.py) && std::isfinite(s.pz) && std::isfinite(s.vx) &&
         std::isfinite(s.vy) && std::isfinite(s.vz);
}

void check_accepted(const particles::SceneDesc& d) {
  require(d.count >= 1 && d.count <= (1u << 27));
  require(d.cpu_count >= 1 && d.cpu_count <= (1u << 24));
  require(std::isfinite(d.sprite_size) && d.sprite_size > 0.0f);
  require(d.sprite_size_count <= (1u << 27));
  require(d.time_step > 0.0f && d.time_step <= 0.1f);
  for (std::size_t i = 1; i < d.camera_path.size(); ++i) {
    require(d.camera_path[i].time > d.camera_path[i - 1].time);
  }
  for (std::uint32_t i = 0; i < 4; ++i) {
    particles::ParticleState s = particles::model_init(d.params, i * 7919u);
    require(finite(s));
    for (int step = 0; step < 3; ++step) {
      particles::model_step(d.params, s, d.time_step);
      require(finite(s));
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    check_accepted(particles::parse_scene(text, "fuzz.toml"));
  } catch (const particles::SceneError&) {
    // Refused with a message: what the loader is for.
  }
  return 0;
}
