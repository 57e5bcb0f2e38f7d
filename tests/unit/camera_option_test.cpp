// --camera eye=x,y,z target=x,y,z fov=deg (app/scene/camera_option.hpp): what parses, what is
// refused and why, the pose it becomes, the text the E key prints (which parses back to the same
// view), and the override of a scene's camera, path and framing.
#include "app/scene/camera_option.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/camera.hpp"
#include "tests/support/thrown_message.hpp"

namespace particles {
namespace {

CameraView parse(std::vector<std::string> words) {
  return parse_camera_view(words);
}

std::string refusal(std::vector<std::string> words) {
  return test::thrown_message<std::invalid_argument>([&] { parse_camera_view(words); }, "accepted");
}

TEST(CameraOption, ParsesEyeTargetAndFovInAnyOrderAndSpacing) {
  const CameraView a = parse({"eye=1,2,3", "target=-4,5.5,0", "fov=40"});
  EXPECT_EQ(a.eye.x, 1.0f);
  EXPECT_EQ(a.eye.z, 3.0f);
  EXPECT_EQ(a.target.x, -4.0f);
  EXPECT_EQ(a.target.y, 5.5f);
  ASSERT_TRUE(a.fov_deg);
  EXPECT_EQ(*a.fov_deg, 40.0f);
  const CameraView b = parse({"fov=40 target=-4,5.5,0", "eye=1,2,3"});  // one quoted word too
  EXPECT_EQ(b.eye.y, a.eye.y);
  EXPECT_EQ(b.target.y, a.target.y);
  EXPECT_FALSE(parse({"eye=0,0,10", "target=0,0,0"}).fov_deg);  // the scene's fov
}

TEST(CameraOption, RefusesWhatAScenesCameraCouldNotBe) {
  EXPECT_NE(refusal({"eye=0,0,10"}).find("needs target=x,y,z"), std::string::npos);
  EXPECT_NE(refusal({"fov=30"}).find("needs eye=x,y,z and target=x,y,z"), std::string::npos);
  EXPECT_NE(refusal({"eye=0,0,10", "target=0,0,0", "up=0,1,0"}).find("'up=0,1,0' is not"),
            std::string::npos);
  EXPECT_NE(refusal({"eye=0,0,10", "eye=0,0,9", "target=0,0,0"}).find("eye is given twice"),
            std::string::npos);
  EXPECT_NE(refusal({"eye=0,10", "target=0,0,0"}).find("not three numbers"), std::string::npos);
  EXPECT_NE(refusal({"eye=0,0,10,1", "target=0,0,0"}).find("not three numbers"), std::string::npos);
  EXPECT_NE(refusal({"eye=0,0,ten", "target=0,0,0"}).find("eye's z 'ten' is not a number"),
            std::string::npos);
  for (const char* bad : {"nan", "inf", "-inf", "2e6", "1e39"}) {
    EXPECT_NE(refusal({"eye=0,0," + std::string(bad), "target=0,0,0"}).find("outside"),
              std::string::npos)
        << bad;
  }
  EXPECT_NE(refusal({"eye=0,0,10", "target=0,0,0", "fov=0"}).find("fov 0 is outside [1, 170]"),
            std::string::npos);
  EXPECT_NE(refusal({"eye=0,0,10", "target=0,0,0", "fov=171"}).find("outside"), std::string::npos);
  EXPECT_NE(refusal({"eye=1,1,1", "target=1,1,1"}).find("from the target"), std::string::npos);
  EXPECT_NE(refusal({"eye=0,10,0", "target=0,0,0"}).find("straight above or below"),
            std::string::npos);
}

TEST(CameraOption, ThePoseSeesFromTheEyeAndThePrintedTextParsesBack) {
  const CameraView view = parse({"eye=3,4,12", "target=1,1,1", "fov=35"});
  const CameraPose pose = camera_pose_of(view, CameraPose{});
  EXPECT_EQ(pose.fov_deg, 35.0f);
  EXPECT_NEAR(pose.distance, std::sqrt(4.0f + 9.0f + 121.0f), 1e-5f);
  const glm::vec3 eye = camera_eye(pose);
  EXPECT_NEAR(eye.x, 3.0f, 1e-4f);
  EXPECT_NEAR(eye.y, 4.0f, 1e-4f);
  EXPECT_NEAR(eye.z, 12.0f, 1e-4f);

  const std::string text = camera_option_text(pose);
  ASSERT_TRUE(text.starts_with("--camera eye=")) << text;
  const CameraView back = parse({text.substr(std::string("--camera ").size())});
  EXPECT_NEAR(back.eye.x, 3.0f, 1e-4f) << text;
  EXPECT_NEAR(back.eye.z, 12.0f, 1e-4f) << text;
  EXPECT_EQ(back.target.y, 1.0f) << text;
  EXPECT_EQ(*back.fov_deg, 35.0f) << text;
  const CameraPose again = camera_pose_of(back, CameraPose{});
  EXPECT_NEAR(again.yaw_deg, pose.yaw_deg, 1e-3f);
  EXPECT_NEAR(again.pitch_deg, pose.pitch_deg, 1e-3f);
}

TEST(CameraOption, OverridesTheScenesPosePathAndFraming) {
  SceneDesc scene;
  scene.camera.fov_deg = 70.0f;
  scene.camera_auto_frame = true;
  scene.camera_path.push_back(CameraKey{});
  override_camera(scene, parse({"eye=0,0,10", "target=0,0,0"}));
  EXPECT_TRUE(scene.camera_path.empty());
  EXPECT_FALSE(scene.camera_auto_frame);
  EXPECT_EQ(scene.camera.distance, 10.0f);
  EXPECT_EQ(scene.camera.yaw_deg, 0.0f);
  EXPECT_EQ(scene.camera.pitch_deg, 0.0f);
  EXPECT_EQ(scene.camera.fov_deg, 70.0f);  // the scene's, none given
}

}  // namespace
}  // namespace particles
