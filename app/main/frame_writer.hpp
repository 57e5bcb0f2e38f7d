#pragma once
// Writes a recording's frames as PNGs on a thread of its own, so that encoding them (tens of
// milliseconds a frame at 1280x720) stays off the frame's critical path and the recorded frame
// times are the frame's own. The queue is bounded: when encoding falls behind, push() waits for
// room instead of holding every frame in memory (a recording's frames then pace the run, which
// the frame times show).
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <filesystem>
#include <mutex>
#include <thread>
#include <utility>

#include "app/gl/image.hpp"

namespace particles {

class FrameWriter {
 public:
  // capacity: frames queued at most (at least 1).
  explicit FrameWriter(std::size_t capacity = 8);
  // Waits for the queued frames; an error it meets then is dropped (call finish() to see it).
  ~FrameWriter();
  FrameWriter(const FrameWriter&) = delete;
  FrameWriter& operator=(const FrameWriter&) = delete;

  // Queues `image` to be written to `path` as an RGB PNG (alpha dropped: a video has none),
  // never over an existing file. Waits while the queue is full. Throws the first write's error
  // (std::runtime_error naming the file) once the writer has met one; nothing is queued after it.
  void push(std::filesystem::path path, gl::Image image);

  // Waits until every queued frame is written; throws the first write's error, if any.
  void finish();

 private:
  void run();
  void rethrow_error();  // with mutex_ held

  std::size_t capacity_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::pair<std::filesystem::path, gl::Image>> queue_;
  bool writing_ = false;  // a frame is out of the queue, being written
  bool stopping_ = false;
  std::exception_ptr error_;
  std::thread thread_;  // last: starts once the members above exist
};

}  // namespace particles
