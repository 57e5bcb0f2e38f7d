#pragma once
// The screenshot the P key (or the HUD's button) asks for in the window. Unlike --screenshot,
// which the run is for and which ends it with an error when it cannot be written, this one is a
// side request: a write that fails (a full disk, a folder that went away) is reported and the
// session goes on.
#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

#include "app/gl/image.hpp"

namespace particles {

// The window's P screenshots go here, under the working directory (created on first use), so
// that they do not litter it; the HUD's line names the file.
inline constexpr const char* kKeyScreenshotDir = "screenshots";

// Writes `image` as `dir`/screenshot-FRAME.png (`dir` created when it does not exist), or
// screenshot-FRAME-2.png, ... the first name nothing has (an earlier run's screenshot is kept) and
// none of `reserved` is (the files the run writes at its end, --screenshot and --report, which
// would replace it), never over an existing file. Returns the line the HUD shows, "wrote
// screenshot-42.png" or "screenshot not saved: <why>", and prints it on `log` ("error: ..." for a
// failure). Never throws for a failed write.
std::string save_key_screenshot(const gl::Image& image, const std::filesystem::path& dir,
                                std::uint64_t frame, std::ostream& log,
                                const std::vector<std::filesystem::path>& reserved = {});

}  // namespace particles
