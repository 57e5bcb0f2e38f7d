#include "app/main/recorder.hpp"

#include <cstdio>
#include <ostream>
#include <stdexcept>
#include <system_error>

#include "app/main/frame_writer.hpp"
#include "app/main/process.hpp"
#include "core/output_file.hpp"

namespace particles {
namespace {

namespace fs = std::filesystem;

// The image2 pattern of the frames: ffmpeg reads "%%" as a '%' and "%05d" as the frame number.
std::string frame_pattern(const fs::path& dir) {
  std::string escaped;
  for (const char c : dir.string()) {
    escaped += c;
    if (c == '%') escaped += '%';
  }
  if (!escaped.empty() && escaped.back() != '/') escaped += '/';
  return escaped + "frame_%05d.png";
}

// What ffmpeg does with the frames, without the options that only quieten it.
std::vector<std::string> encode_arguments(const fs::path& dir, int fps, std::uint64_t frames) {
  return {"-framerate", std::to_string(fps), "-start_number", "0", "-i", frame_pattern(dir),
          "-frames:v", std::to_string(frames),
          // H.264 in yuv420p needs even sides: an odd one gains a row or column of edge pixels.
          "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2", "-c:v", "libx264", "-pix_fmt", "yuv420p",
          "-movflags", "+faststart", (dir / kRecordingVideo).string()};
}

// `word` as one shell word: as it is when it holds only safe characters, else single-quoted.
std::string shell_word(const std::string& word) {
  if (!word.empty() && word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                              "0123456789_./:=+-,%") == std::string::npos) {
    return word;
  }
  std::string quoted = "'";
  for (const char c : word) {
    if (c == '\'') {
      quoted += "'\\''";
    } else {
      quoted += c;
    }
  }
  return quoted + "'";
}

}  // namespace

fs::path recorded_frame_path(const fs::path& dir, std::uint64_t frame) {
  char name[40];
  std::snprintf(name, sizeof name, "frame_%05llu.png", static_cast<unsigned long long>(frame));
  return dir / name;
}

std::vector<std::string> ffmpeg_arguments(const fs::path& dir, int fps, std::uint64_t frames) {
  // -n: an existing recording.mp4 (made after the run began) is kept and ffmpeg fails, never -y.
  std::vector<std::string> args = {"-hide_banner", "-loglevel", "error", "-nostdin", "-n"};
  const std::vector<std::string> encode = encode_arguments(dir, fps, frames);
  args.insert(args.end(), encode.begin(), encode.end());
  return args;
}

Recorder::Recorder(const fs::path& dir, int fps, bool keep_frames)
    : dir_(prepare_empty_output_dir(dir, "--record")),
      fps_(fps),
      keep_frames_(keep_frames),
      writer_(std::make_unique<FrameWriter>()) {}

Recorder::~Recorder() = default;

void Recorder::add(gl::Image image) {
  if (frames_ == 0) {
    width_ = image.width;
    height_ = image.height;
  } else if (image.width != width_ || image.height != height_) {
    throw std::runtime_error("--record: frame " + std::to_string(frames_) + " is " +
                             std::to_string(image.width) + "x" + std::to_string(image.height) +
                             ", the recording's frames are " + std::to_string(width_) + "x" +
                             std::to_string(height_));
  }
  // The folder was empty: a name already taken is someone else's file, left alone.
  writer_->push(recorded_frame_path(dir_, frames_), std::move(image));
  ++frames_;
}

int Recorder::finish(std::ostream& out, std::ostream& err) {
  writer_->finish();
  if (frames_ == 0) {
    out << "recording: no frames were recorded into " << dir_.string() << '\n';
    return 0;
  }
  const std::string frames = std::to_string(frames_) + " frames (" + std::to_string(width_) + "x" +
                             std::to_string(height_) + ") in " + dir_.string();
  const fs::path video = dir_ / kRecordingVideo;
  const auto ffmpeg = find_program_on_path("ffmpeg");
  if (!ffmpeg) {
    std::string command = "ffmpeg";
    for (const std::string& arg : encode_arguments(dir_, fps_, frames_)) {
      command += ' ' + shell_word(arg);
    }
    out << "recording: " << frames << "; ffmpeg is not on the PATH, so no video was made; to "
        << "make " << kRecordingVideo << " run: " << command << '\n';
    return 0;
  }
  out << "recording: " << frames << "; encoding " << video.string() << " with " << ffmpeg->string()
      << '\n'
      << std::flush;  // before ffmpeg's own output, if it has any
  const ProcessResult result = run_program(*ffmpeg, ffmpeg_arguments(dir_, fps_, frames_));
  if (!result.succeeded()) {
    err << "error: recording: " << ffmpeg->string() << " failed (" << result.describe()
        << ") encoding " << video.string() << "; the frames are in " << dir_.string() << '\n';
    return 1;
  }
  out << "recording: " << video.string() << " (" << frames_ << " frames at " << fps_ << " fps)";
  std::error_code ec;
  if (keep_frames_ || !fs::is_regular_file(video, ec)) {
    out << "; the frames are in " << dir_.string() << '\n';
    return 0;
  }
  // Only the names this run wrote (the folder was empty when it began).
  std::uint64_t left = 0;
  for (std::uint64_t i = 0; i < frames_; ++i) {
    if (!fs::remove(recorded_frame_path(dir_, i), ec) && ec) ++left;
  }
  if (left == 0) {
    out << "; its frames were removed (--keep-frames keeps them)\n";
  } else {
    out << "; " << left << " of its frames could not be removed from " << dir_.string() << '\n';
  }
  return 0;
}

}  // namespace particles
