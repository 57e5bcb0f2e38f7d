#include "app/main/frame_writer.hpp"

#include <algorithm>

#include "core/output_file.hpp"

namespace particles {

FrameWriter::FrameWriter(std::size_t capacity)
    : capacity_(std::max<std::size_t>(capacity, 1)), thread_([this] { run(); }) {}

FrameWriter::~FrameWriter() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void FrameWriter::rethrow_error() {
  if (error_) std::rethrow_exception(error_);
}

void FrameWriter::push(std::filesystem::path path, gl::Image image) {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [this] { return error_ || queue_.size() < capacity_; });
  rethrow_error();
  queue_.emplace_back(std::move(path), std::move(image));
  lock.unlock();
  changed_.notify_all();
}

void FrameWriter::finish() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [this] { return error_ || (queue_.empty() && !writing_); });
  rethrow_error();
}

void FrameWriter::run() {
  for (;;) {
    std::unique_lock lock(mutex_);
    // On stopping, what is queued is still written (the destructor waits for it).
    changed_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (queue_.empty() || error_) return;
    auto [path, image] = std::move(queue_.front());
    queue_.pop_front();
    writing_ = true;
    lock.unlock();
    changed_.notify_all();  // room for the next push
    std::exception_ptr error;
    try {
      gl::write_png(path, image, Overwrite::refuse, gl::PngChannels::rgb);
    } catch (...) {
      error = std::current_exception();
    }
    lock.lock();
    writing_ = false;
    if (error && !error_) error_ = error;
    lock.unlock();
    changed_.notify_all();
  }
}

}  // namespace particles
