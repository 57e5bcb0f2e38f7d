#pragma once
// --record DIR: every frame of a run as a numbered RGB PNG (frame_00000.png, ...), read back from
// the render target as a screenshot is and written by a thread of its own (frame_writer.hpp), and
// after the run an H.264 MP4 of them by ffmpeg when it is on the PATH; once the MP4 exists the
// frames are removed unless --keep-frames keeps them. Nothing is written outside DIR. Only a
// session that records makes one, so a run without --record pays nothing.
//
// Why PNGs and not a pipe into ffmpeg: measured on the 1280x720 galaxy (docs/recording.md), RGB
// PNGs cost the frame nothing once encoded off its path, work without ffmpeg (the command to
// encode them is printed), and are removed after the MP4, so the disk holds them only while the
// run lasts.
#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "app/gl/image.hpp"

namespace particles {

class FrameWriter;

inline constexpr const char* kRecordingVideo = "recording.mp4";

// DIR/frame_00042.png for frame 42 (five digits, more past 99999, as ffmpeg's %05d reads them).
std::filesystem::path recorded_frame_path(const std::filesystem::path& dir, std::uint64_t frame);

// ffmpeg's arguments (after argv[0]) that encode `frames` frames of `dir` at `fps` into
// dir/recording.mp4 (never over an existing one: -n): H.264, yuv420p, odd sizes padded to even.
// `dir` should be absolute (so no name can be taken for an ffmpeg protocol); a '%' in it is escaped
// for the image2 pattern.
std::vector<std::string> ffmpeg_arguments(const std::filesystem::path& dir, int fps,
                                          std::uint64_t frames);

class Recorder {
 public:
  // Creates `dir` and its parents, or takes it as it is when it is an empty folder, and checks
  // that a file can be written there (prepare_empty_output_dir). A folder that holds anything is
  // refused: the recording then never replaces or deletes a file it did not write in this run.
  // Throws std::runtime_error naming the path when any of it fails.
  // keep_frames: the PNGs stay after the MP4 is made (--keep-frames); otherwise the ones this
  // run wrote are removed once it exists.
  Recorder(const std::filesystem::path& dir, int fps, bool keep_frames = false);
  ~Recorder();

  // Queues the next frame for the writer thread; throws (write_png's error, naming the file)
  // once a frame could not be written. Every frame must have the first one's size, since a
  // video has one.
  void add(gl::Image image);

  // After the last frame: waits for the frames to be written (throwing a write's error), encodes
  // the video when ffmpeg is on the PATH, removes the frames once it exists (unless kept), and
  // prints one line on `out` saying where the video (and the frames) are, or how to encode them
  // without ffmpeg. Returns 0, or 1 after printing ffmpeg's exit status on `err` when it failed
  // (the frames are then kept).
  int finish(std::ostream& out, std::ostream& err);

  const std::filesystem::path& dir() const { return dir_; }
  std::uint64_t frames() const { return frames_; }

 private:
  std::filesystem::path dir_;  // absolute
  int fps_;
  bool keep_frames_;
  std::unique_ptr<FrameWriter> writer_;  // the frames' PNGs, off the frame's path
  std::uint64_t frames_ = 0;
  int width_ = 0, height_ = 0;
};

}  // namespace particles
