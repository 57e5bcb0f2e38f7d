#include "app/scene/camera_option.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "app/scene/scene_ranges.hpp"

namespace particles {
namespace {

constexpr double kPi = 3.14159265358979323846;

std::vector<std::string> parts_of(std::span<const std::string> words) {
  std::vector<std::string> parts;
  for (const std::string& word : words) {
    std::istringstream in(word);
    for (std::string part; in >> part;) parts.push_back(part);
  }
  return parts;
}

float number_in(const std::string& text, const std::string& what, const Range& range) {
  std::size_t used = 0;
  double v = 0.0;
  try {
    v = std::stod(text, &used);
  } catch (const std::out_of_range&) {
    throw std::invalid_argument(what + " " + text + " is outside " + range.describe());
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size()) {
    throw std::invalid_argument(what + " '" + text + "' is not a number");
  }
  if (!std::isfinite(v) || !range.contains(v)) {
    throw std::invalid_argument(what + " " + text + " is outside " + range.describe());
  }
  return static_cast<float>(v);
}

Vec3 vec3_of(const std::string& key, const std::string& text) {
  float xyz[3];
  std::size_t start = 0;
  for (int i = 0; i < 3; ++i) {
    const std::size_t comma = text.find(',', start);
    if ((i < 2) == (comma == std::string::npos)) {
      throw std::invalid_argument(key + "=" + text + " is not three numbers x,y,z");
    }
    const std::string item = text.substr(start, comma == std::string::npos ? comma : comma - start);
    xyz[i] = number_in(item, key + "'s " + "xyz"[i], scene_key_range("camera.target"));
    start = comma + 1;
  }
  return {xyz[0], xyz[1], xyz[2]};
}

std::string number_text(float v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", static_cast<double>(v));  // round-trips a float
  return text;
}

}  // namespace

CameraView parse_camera_view(std::span<const std::string> words) {
  std::optional<Vec3> eye, target;
  std::optional<float> fov;
  for (const std::string& part : parts_of(words)) {
    const std::size_t eq = part.find('=');
    const std::string key = part.substr(0, eq);
    if (eq == std::string::npos || (key != "eye" && key != "target" && key != "fov")) {
      throw std::invalid_argument("'" + part + "' is not eye=x,y,z, target=x,y,z or fov=deg");
    }
    const std::string value = part.substr(eq + 1);
    if ((key == "eye" && eye) || (key == "target" && target) || (key == "fov" && fov)) {
      throw std::invalid_argument(key + " is given twice");
    }
    if (key == "eye") {
      eye = vec3_of(key, value);
    } else if (key == "target") {
      target = vec3_of(key, value);
    } else {
      fov = number_in(value, "fov", scene_key_range("camera.fov"));
    }
  }
  if (!eye || !target) {
    throw std::invalid_argument(std::string("needs ") + (eye ? "" : "eye=x,y,z") +
                                (!eye && !target ? " and " : "") + (target ? "" : "target=x,y,z"));
  }
  const CameraView view{*eye, *target, fov};
  // The pose it becomes must be one a scene file could hold.
  const CameraPose pose = camera_pose_of(view, CameraPose{});
  const float largest =
      std::max({std::fabs(target->x), std::fabs(target->y), std::fabs(target->z)});
  if (!scene_key_range("camera.distance").contains(pose.distance) ||
      pose.distance < 1e-5f * largest) {
    throw std::invalid_argument("the eye is " + number_text(pose.distance) +
                                " from the target; it must be at least 1e-4 (and 1e-5 of the "
                                "target's largest coordinate) away, and at most 1e6");
  }
  if (!scene_key_range("camera.pitch").contains(pose.pitch_deg)) {
    throw std::invalid_argument("the eye is straight above or below the target (pitch " +
                                number_text(pose.pitch_deg) +
                                " degrees; a camera's pitch is within [-89, 89])");
  }
  return view;
}

CameraPose camera_pose_of(const CameraView& view, const CameraPose& base) {
  // camera_eye's inverse: the eye sits at target + distance * (sin yaw cos pitch, sin pitch,
  // cos yaw cos pitch).
  const double dx = double(view.eye.x) - view.target.x, dy = double(view.eye.y) - view.target.y,
               dz = double(view.eye.z) - view.target.z;
  const double distance = std::sqrt(dx * dx + dy * dy + dz * dz);
  CameraPose pose = base;
  pose.target = view.target;
  pose.distance = static_cast<float>(distance);
  pose.pitch_deg =
      distance > 0.0
          ? static_cast<float>(std::asin(std::clamp(dy / distance, -1.0, 1.0)) * 180.0 / kPi)
          : 0.0f;
  pose.yaw_deg = static_cast<float>(std::atan2(dx, dz) * 180.0 / kPi);
  if (view.fov_deg) pose.fov_deg = *view.fov_deg;
  return pose;
}

void override_camera(SceneDesc& scene, const CameraView& view) {
  scene.camera = camera_pose_of(view, scene.camera);
  scene.camera_path.clear();
  scene.camera_auto_frame = false;
}

std::string camera_option_text(const CameraPose& pose) {
  const double yaw = double(pose.yaw_deg) * kPi / 180.0,
               pitch = double(pose.pitch_deg) * kPi / 180.0;
  const double d = pose.distance;
  const Vec3 eye = {static_cast<float>(pose.target.x + d * std::sin(yaw) * std::cos(pitch)),
                    static_cast<float>(pose.target.y + d * std::sin(pitch)),
                    static_cast<float>(pose.target.z + d * std::cos(yaw) * std::cos(pitch))};
  auto xyz = [](Vec3 v) {
    return number_text(v.x) + "," + number_text(v.y) + "," + number_text(v.z);
  };
  return "--camera eye=" + xyz(eye) + " target=" + xyz(pose.target) +
         " fov=" + number_text(pose.fov_deg);
}

}  // namespace particles
