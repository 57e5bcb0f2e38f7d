#pragma once
// The time a report was made, as the bench's and the soak's summaries record it.
#include <ctime>
#include <string>

namespace particles {

// Now, in UTC, as ISO 8601 to the second: "2025-01-31T12:00:00Z".
inline std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return text;
}

}  // namespace particles
