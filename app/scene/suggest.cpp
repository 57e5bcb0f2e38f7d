#include "app/scene/suggest.hpp"

#include <algorithm>

namespace particles {

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string nearest_name(const std::string& name, const std::vector<std::string>& candidates,
                         std::size_t max_edits) {
  std::string nearest;
  std::size_t nearest_distance = max_edits + 1;
  for (const std::string& c : candidates) {
    if (const std::size_t d = edit_distance(name, c); d < nearest_distance) {
      nearest_distance = d;
      nearest = c;
    }
  }
  return nearest;
}

std::string did_you_mean(const std::string& name, const std::vector<std::string>& candidates) {
  const std::string nearest = nearest_name(name, candidates);
  return nearest.empty() ? "" : " (did you mean '" + nearest + "'?)";
}

}  // namespace particles
