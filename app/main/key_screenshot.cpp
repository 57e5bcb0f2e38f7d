#include "app/main/key_screenshot.hpp"

#include <exception>
#include <ostream>

#include "core/output_file.hpp"

namespace particles {

std::string save_key_screenshot(const gl::Image& image, const std::filesystem::path& dir,
                                std::uint64_t frame, std::ostream& log,
                                const std::vector<std::filesystem::path>& reserved) {
  try {
    // Made on first use; a name that exists is left for the write to fail on with its reason.
    if (!dir.empty() && !std::filesystem::exists(dir)) std::filesystem::create_directories(dir);
    const std::filesystem::path path =
        unused_file_name(dir, "screenshot-" + std::to_string(frame), "png", reserved);
    gl::write_png(path, image, Overwrite::refuse);
    log << "wrote " << path.string() << '\n';
    return "wrote " + path.string();
  } catch (const std::exception& e) {
    // A screenshot is not what the window session is for: losing one must not end it.
    log << "error: screenshot not saved: " << e.what() << '\n';
    return std::string("screenshot not saved: ") + e.what();
  }
}

}  // namespace particles
