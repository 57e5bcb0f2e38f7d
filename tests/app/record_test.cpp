// --record DIR: the real binary, headless on the CPU backend (Mesa's EGL surfaceless platform
// where there is no GPU), records numbered RGB PNGs that decode, at the run's size, the same bytes
// run to run; an unwritable DIR stops it; the ffmpeg step runs a fake ffmpeg first on the PATH
// (which writes down its argv) or finds none and says how to encode. In-process: the names,
// ffmpeg's arguments and the PATH search.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "app/main/process.hpp"
#include "app/main/recorder.hpp"
#include "core/file_bytes.hpp"
#include "tests/support/stb_image_impl.hpp"
// stb_image first (stb_image_impl.hpp)
#include "tests/support/read_png.hpp"
#include "tests/support/run_command.hpp"

namespace particles {
namespace {

namespace fs = std::filesystem;

using Result = particles::test::CommandResult;
using particles::test::shell_quoted;

// The binary with `args` (already shell words) under PATH=`path`; stdout and stderr together.
Result run_particles(const std::string& args, const fs::path& path) {
  return particles::test::run_command("PATH=" + shell_quoted(path.string()) + " " +
                                      shell_quoted(PARTICLES_BINARY) + " " + args);
}

// A fresh, empty directory for one test (a space and a quote in its name: no shell may split it).
fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / "particles-record-test" / (name + " it's");
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// A directory holding no ffmpeg, for PATH.
fs::path empty_bin(const fs::path& dir) {
  fs::create_directories(dir / "bin");
  return dir / "bin";
}

// A fake ffmpeg in dir/fakebin: writes its arguments one per line to dir/argv.txt and exits
// with `status`; on success it also makes the video (its last argument), as ffmpeg would.
fs::path fake_ffmpeg(const fs::path& dir, int status) {
  const fs::path bin = dir / "fakebin";
  fs::create_directories(bin);
  std::ofstream(bin / "ffmpeg") << "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > "
                                << shell_quoted((dir / "argv.txt").string()) << "\n"
                                << (status == 0
                                        ? "for a in \"$@\"; do last=$a; done; : > \"$last\"\n"
                                        : "")
                                << "exit " << status << "\n";
  fs::permissions(bin / "ffmpeg", fs::perms::owner_all);
  return bin;
}

std::vector<std::string> lines_of(const fs::path& file) {
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<std::string> names_in(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::string bytes_of(const fs::path& file) {
  return particles::file_bytes(file).value_or("");
}

using Decoded = particles::test::PngPixels;
using particles::test::read_png;

// A still scene (shells that do not spin) on a fast camera path: its frames differ only because
// the camera flies round it.
fs::path write_fly_through_scene(const fs::path& dir) {
  const fs::path file = dir / "fly_through.toml";
  std::ofstream(file) << R"(name = "Fly-through"
[particles]
count = 3000
cpu_count = 3000
sprite_size = 0.4
seed = 7
time_step = 0.05
[model]
type = "shells"
[model.shells]
shells = 2
spin = 0.0
stripes = 4
[camera]
target = [0.0, 0.0, 0.0]
distance = 16.0
yaw = 0.0
pitch = 20.0
[[camera.path]]
time = 0.0
yaw = 0.0
[[camera.path]]
time = 1.0
yaw = 360.0
pitch = 40.0
)";
  return file;
}

const std::string kSmallRun = "--headless --backend cpu --count 3000 --size 160x90";

class RecordRenderer : public ::testing::TestWithParam<const char*> {};

TEST_P(RecordRenderer, HeadlessRunWritesNumberedFramesThatDecode) {
  const fs::path dir = fresh_dir(std::string("frames-") + GetParam());
  const fs::path rec = dir / "rec";  // created by the run
  const Result r = run_particles(kSmallRun + " --scene snow --frames 4 --renderer " + GetParam() +
                                     " --screenshot " + shell_quoted((dir / "shot.png").string()) +
                                     " --report " + shell_quoted((dir / "report.csv").string()) +
                                     " --record " + shell_quoted(rec.string()),
                                 empty_bin(dir));
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(names_in(rec), (std::vector<std::string>{"frame_00000.png", "frame_00001.png",
                                                     "frame_00002.png", "frame_00003.png"}));
  std::vector<Decoded> frames;
  for (int i = 0; i < 4; ++i) {
    frames.push_back(read_png(recorded_frame_path(rec, static_cast<std::uint64_t>(i))));
    EXPECT_EQ(frames.back().width, 160) << i;
    EXPECT_EQ(frames.back().height, 90) << i;
    EXPECT_EQ(frames.back().channels, 3) << i;  // RGB: a video has no alpha
    EXPECT_EQ(frames.back().pixels.size(), 160u * 90u * 4u) << i;
  }
  // The snow falls: the frames differ, and the last is the screenshot's frame, colour for colour.
  EXPECT_NE(frames.front().pixels, frames.back().pixels);
  const Decoded shot = read_png(dir / "shot.png");
  ASSERT_EQ(shot.pixels.size(), frames.back().pixels.size());
  for (std::size_t i = 0; i < shot.pixels.size(); ++i) {
    if (i % 4 == 3) continue;  // alpha
    ASSERT_EQ(shot.pixels[i], frames.back().pixels[i]) << "byte " << i;
  }
}

TEST_P(RecordRenderer, TheFlyThroughRecordsTheSameBytesEveryRun) {
  const fs::path dir = fresh_dir(std::string("repeat-") + GetParam());
  const fs::path scene = write_fly_through_scene(dir);
  std::vector<std::string> runs[2];
  for (int run = 0; run < 2; ++run) {
    const fs::path rec = dir / ("rec" + std::to_string(run));
    const Result r = run_particles(kSmallRun + " --scene " + shell_quoted(scene.string()) +
                                       " --frames 3 --renderer " + GetParam() + " --record " +
                                       shell_quoted(rec.string()),
                                   empty_bin(dir));
    ASSERT_EQ(r.status, 0) << r.output;
    for (std::uint64_t i = 0; i < 3; ++i)
      runs[run].push_back(bytes_of(recorded_frame_path(rec, i)));
    ASSERT_EQ(names_in(rec).size(), 3u);
  }
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(runs[0][i], runs[1][i]) << "frame " << i;
  // The particles stand still; the camera path moves the view every frame.
  EXPECT_NE(runs[0][0], runs[0][1]);
  EXPECT_NE(runs[0][1], runs[0][2]);
}

INSTANTIATE_TEST_SUITE_P(Record, RecordRenderer, ::testing::Values("raster", "composite"));

TEST(Record, AnUnwritableDirectoryIsAnErrorNamingIt) {
  const fs::path dir = fresh_dir("unwritable");
  std::ofstream(dir / "a file") << "not a directory\n";
  for (const fs::path& rec : {dir / "a file" / "rec", dir / "a file"}) {
    const Result r = run_particles(kSmallRun + " --frames 2 --record " + shell_quoted(rec.string()),
                                   empty_bin(dir));
    EXPECT_NE(r.status, 0) << r.output;
    EXPECT_NE(r.status, -1) << r.output;
    EXPECT_NE(r.output.find("error: --record: cannot create directory " + rec.string()),
              std::string::npos)
        << r.output;
  }
}

TEST(Record, WithoutFfmpegItSaysWhereTheFramesAreAndHowToEncodeThem) {
  const fs::path dir = fresh_dir("no-ffmpeg");
  const fs::path rec = dir / "rec";
  const Result r = run_particles(
      kSmallRun + " --frames 2 --record " + shell_quoted(rec.string()) + " --record-fps 25",
      empty_bin(dir));
  ASSERT_EQ(r.status, 0) << r.output;
  const auto at = r.output.find("recording: 2 frames (160x90) in " + rec.string() +
                                "; ffmpeg is not on the PATH, so no video was made");
  ASSERT_NE(at, std::string::npos) << r.output;
  const std::string line = r.output.substr(at, r.output.find('\n', at) - at);
  EXPECT_NE(line.find("ffmpeg -framerate 25 "), std::string::npos) << line;
  EXPECT_NE(line.find("frame_%05d.png"), std::string::npos) << line;
  EXPECT_NE(line.find("-c:v libx264 -pix_fmt yuv420p"), std::string::npos) << line;
  EXPECT_FALSE(fs::exists(rec / kRecordingVideo));
  EXPECT_EQ(names_in(rec).size(), 2u);
}

TEST(Record, FfmpegOnThePathEncodesTheFramesFromAnArgumentVector) {
  const fs::path dir = fresh_dir("ffmpeg %d $HOME");  // no shell, no printf pattern may touch it
  const fs::path rec = dir / "rec";
  const Result r = run_particles(
      "--headless --backend cpu --count 3000 --size 161x91 --frames 3 --record-fps 24 --record " +
          shell_quoted(rec.string()),
      fake_ffmpeg(dir, 0));
  ASSERT_EQ(r.status, 0) << r.output;
  std::string pattern;
  for (const char c : rec.string()) pattern += c == '%' ? std::string("%%") : std::string(1, c);
  pattern += "/frame_%05d.png";
  const std::vector<std::string> expected = {"-hide_banner",
                                             "-loglevel",
                                             "error",
                                             "-nostdin",
                                             "-n",
                                             "-framerate",
                                             "24",
                                             "-start_number",
                                             "0",
                                             "-i",
                                             pattern,
                                             "-frames:v",
                                             "3",
                                             "-vf",
                                             "pad=ceil(iw/2)*2:ceil(ih/2)*2",
                                             "-c:v",
                                             "libx264",
                                             "-pix_fmt",
                                             "yuv420p",
                                             "-movflags",
                                             "+faststart",
                                             (rec / kRecordingVideo).string()};
  EXPECT_EQ(lines_of(dir / "argv.txt"), expected);
  EXPECT_NE(
      r.output.find("recording: " + (rec / kRecordingVideo).string() + " (3 frames at 24 fps)"),
      std::string::npos)
      << r.output;
}

// Recording's file set: once the MP4 exists the frames this run wrote are removed, unless
// --keep-frames keeps them; either way the run writes nothing outside DIR (it used to leave
// out/particles.png and out/frame_times.csv beside it through the demo script).
TEST(Record, TheFramesGoOnceTheVideoExistsUnlessKept) {
  for (const bool keep : {false, true}) {
    const fs::path dir = fresh_dir(keep ? "file-set-kept" : "file-set");
    const fs::path work = dir / "work";  // the run's working directory
    fs::create_directories(work);
    const fs::path bin = fake_ffmpeg(dir, 0);
    const Result r = particles::test::run_command(
        "cd " + shell_quoted(work.string()) + " && PATH=" + shell_quoted(bin.string()) + " " +
        shell_quoted(PARTICLES_BINARY) + " " + kSmallRun + " --frames 3 --record rec" +
        (keep ? " --keep-frames" : ""));
    ASSERT_EQ(r.status, 0) << r.output;
    EXPECT_EQ(names_in(work), std::vector<std::string>{"rec"}) << r.output;
    const std::vector<std::string> kept = {"frame_00000.png", "frame_00001.png", "frame_00002.png",
                                           kRecordingVideo};
    EXPECT_EQ(names_in(work / "rec"), keep ? kept : std::vector<std::string>{kRecordingVideo})
        << r.output;
    EXPECT_NE(r.output.find(keep ? "; the frames are in " : "; its frames were removed"),
              std::string::npos)
        << r.output;
  }
}

TEST(Record, AFailingFfmpegIsReportedWithItsExitStatus) {
  const fs::path dir = fresh_dir("ffmpeg-fails");
  const fs::path rec = dir / "rec";
  const Result r = run_particles(kSmallRun + " --frames 2 --record " + shell_quoted(rec.string()),
                                 fake_ffmpeg(dir, 3));
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("failed (exit status 3) encoding " + (rec / kRecordingVideo).string()),
            std::string::npos)
      << r.output;
  EXPECT_EQ(names_in(rec), (std::vector<std::string>{"frame_00000.png", "frame_00001.png"}));
}

// `--record .` in a folder of photos used to delete frame_*.png and recording.mp4 there and
// write over the rest of the frame names: a folder that holds anything is now refused, before
// any frame, and left exactly as it was.
TEST(Record, AFolderThatHoldsAnythingIsRefusedAndLeftAsItWas) {
  const fs::path dir = fresh_dir("stale");
  const fs::path rec = dir / "rec";
  fs::create_directories(rec);
  const std::vector<std::string> names = {"frame_00000.png", "frame_00007.png", "frame_7.png",
                                          "notes.txt", "recording.mp4"};
  for (const std::string& name : names) std::ofstream(rec / name) << name;
  const Result r = run_particles(
      "--headless --backend cpu --count 3000 --size 160x90 --frames 100000 --record " +
          shell_quoted(rec.string()),
      empty_bin(dir));
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("error: --record: " + rec.string() + " is not empty (it holds "),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("name a fresh one, such as " + (dir / "rec-2").string()),
            std::string::npos)
      << r.output;
  EXPECT_LT(r.seconds, 30.0);
  EXPECT_EQ(names_in(rec), names);
  for (const std::string& name : names) EXPECT_EQ(bytes_of(rec / name), name) << name;
}

TEST(Record, AnEmptyFolderIsRecordedInto) {
  const fs::path dir = fresh_dir("empty");
  const fs::path rec = dir / "rec";
  fs::create_directories(rec);
  const Result r = run_particles(kSmallRun + " --frames 2 --record " + shell_quoted(rec.string()),
                                 empty_bin(dir));
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(names_in(rec), (std::vector<std::string>{"frame_00000.png", "frame_00001.png"}));
  EXPECT_EQ(read_png(rec / "frame_00000.png").width, 160);
}

TEST(Record, InAWindowTheFramesAreTheWindowsImage) {
  // Under a display (scripts/test.sh starts Xvfb): the window loop records without its HUD.
  const char* display = std::getenv("DISPLAY");
  if (display == nullptr || *display == '\0') GTEST_SKIP() << "no display";
  const fs::path dir = fresh_dir("window");
  const fs::path rec = dir / "rec";
  const Result r =
      run_particles("--backend cpu --count 3000 --size 200x120 --no-vsync --frames 3 --record " +
                        shell_quoted(rec.string()),
                    empty_bin(dir));
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("windowed"), std::string::npos) << r.output;
  ASSERT_EQ(names_in(rec).size(), 3u);
  const Decoded last = read_png(recorded_frame_path(rec, 2));
  EXPECT_EQ(last.width, 200);
  EXPECT_EQ(last.height, 120);
}

TEST(RecordNames, FramesAreNumberedWithFiveDigitsAndMoreWhenNeeded) {
  EXPECT_EQ(recorded_frame_path("/r", 0), fs::path("/r/frame_00000.png"));
  EXPECT_EQ(recorded_frame_path("/r", 42), fs::path("/r/frame_00042.png"));
  EXPECT_EQ(recorded_frame_path("/r", 123456), fs::path("/r/frame_123456.png"));
}

TEST(RecordNames, FfmpegReadsAPercentInTheDirectoryAsItself) {
  const std::vector<std::string> args = ffmpeg_arguments("/a/100%/b", 30, 7);
  const auto input = std::find(args.begin(), args.end(), "-i");
  ASSERT_NE(input, args.end());
  EXPECT_EQ(*(input + 1), "/a/100%%/b/frame_%05d.png");
  EXPECT_EQ(args.back(), "/a/100%/b/recording.mp4");  // an output name is no pattern
}

TEST(FindProgram, SearchesEachDirectoryInTurnForAnExecutableFile) {
  const fs::path dir = fresh_dir("find");
  fs::create_directories(dir / "one");
  fs::create_directories(dir / "two");
  fs::create_directories(dir / "three" / "tool");  // a directory of that name is no program
  std::ofstream(dir / "one" / "tool") << "not executable\n";
  std::ofstream(dir / "two" / "tool") << "#!/bin/sh\n";
  fs::permissions(dir / "two" / "tool", fs::perms::owner_all);
  const std::string list =
      (dir / "three").string() + ":" + (dir / "one").string() + ":" + (dir / "two").string();
  EXPECT_EQ(find_program("tool", list), dir / "two" / "tool");
  EXPECT_FALSE(find_program("tool", (dir / "one").string()));
  EXPECT_FALSE(find_program("tool", ""));
  EXPECT_FALSE(find_program("two/tool", dir.string()));  // a name, not a path
}

TEST(RunProgram, ReportsTheExitStatusAndASignal) {
  const fs::path dir = fresh_dir("run");
  std::ofstream(dir / "exit3") << "#!/bin/sh\nexit 3\n";
  std::ofstream(dir / "killed") << "#!/bin/sh\nkill -9 $$\n";
  for (const char* name : {"exit3", "killed"}) fs::permissions(dir / name, fs::perms::owner_all);
  const ProcessResult three = run_program(dir / "exit3", {});
  EXPECT_TRUE(three.started);
  EXPECT_EQ(three.exit_status, 3);
  EXPECT_EQ(three.describe(), "exit status 3");
  const ProcessResult killed = run_program(dir / "killed", {});
  EXPECT_FALSE(killed.succeeded());
  EXPECT_EQ(killed.describe(), "killed by signal 9");
  const ProcessResult missing = run_program(dir / "no such program", {});
  EXPECT_FALSE(missing.started);
  EXPECT_NE(missing.describe().find("could not start"), std::string::npos);
}

}  // namespace
}  // namespace particles
