#include "app/main/recorder.hpp"

#include <cstdio>
#include <fstream>
#include <ostream>
#include <stdexcept>

#include "app/main/process.hpp"

namespace particles {
namespace {

namespace fs = std::filesystem;

// frame_ followed by five or more digits and .png: the names recorded_frame_path makes.
bool is_recorded_frame_name(const std::string& name) {
  constexpr std::string_view prefix = "frame_", suffix = ".png";
  if (name.size() < prefix.size() + 5 + suffix.size()) return false;
  if (name.compare(0, prefix.size(), prefix) != 0) return false;
  if (name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) return false;
  const std::string digits =
      name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
  return digits.find_first_not_of("0123456789") == std::string::npos;
}

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
  std::vector<std::string> args = {"-hide_banner", "-loglevel", "error", "-nostdin", "-y"};
  const std::vector<std::string> encode = encode_arguments(dir, fps, frames);
  args.insert(args.end(), encode.begin(), encode.end());
  return args;
}

Recorder::Recorder(const fs::path& dir, int fps) : fps_(fps) {
  if (dir.empty()) throw std::runtime_error("--record: the directory is empty");
  std::error_code ec;
  dir_ = fs::absolute(dir, ec).lexically_normal();
  if (ec) {
    throw std::runtime_error("--record: cannot resolve " + dir.string() + ": " + ec.message());
  }
  if (!dir_.has_filename()) dir_ = dir_.parent_path();  // "rec/" is "rec"
  fs::create_directories(dir_, ec);
  std::error_code is_dir_ec;
  if (ec || !fs::is_directory(dir_, is_dir_ec)) {
    throw std::runtime_error("--record: cannot create directory " + dir_.string() + ": " +
                             (ec ? ec.message() : std::string("a file of that name exists")));
  }
  const fs::path probe = dir_ / ".particles-record-probe";
  {
    std::ofstream file(probe);
    if (!file || !(file << "probe\n") || !file.flush()) {
      throw std::runtime_error("--record: cannot write files in " + dir_.string());
    }
  }
  fs::remove(probe, ec);

  // An earlier, longer recording's frames would otherwise join this one's video.
  std::vector<fs::path> stale;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir_, ec)) {
    const std::string name = entry.path().filename().string();
    if (is_recorded_frame_name(name) || name == kRecordingVideo) stale.push_back(entry.path());
  }
  if (ec) throw std::runtime_error("--record: cannot list " + dir_.string() + ": " + ec.message());
  for (const fs::path& old : stale) {
    if (!fs::remove(old, ec) && ec) {
      throw std::runtime_error("--record: cannot remove the earlier recording's " + old.string() +
                               ": " + ec.message());
    }
  }
}

void Recorder::add(const gl::Image& image) {
  if (frames_ == 0) {
    width_ = image.width;
    height_ = image.height;
  } else if (image.width != width_ || image.height != height_) {
    throw std::runtime_error("--record: frame " + std::to_string(frames_) + " is " +
                             std::to_string(image.width) + "x" + std::to_string(image.height) +
                             ", the recording's frames are " + std::to_string(width_) + "x" +
                             std::to_string(height_));
  }
  gl::write_png(recorded_frame_path(dir_, frames_), image);
  ++frames_;
}

int Recorder::finish(std::ostream& out, std::ostream& err) {
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
  out << "recording: " << video.string() << " (" << frames_ << " frames at " << fps_ << " fps)\n";
  return 0;
}

}  // namespace particles
