#pragma once
// "Did you mean": the nearest of the names a user could have meant, for misspelt scenes,
// algorithms, flag values and flags.
#include <cstddef>
#include <string>
#include <vector>

namespace particles {

// Levenshtein distance: insertions, deletions and substitutions of one character each.
std::size_t edit_distance(const std::string& a, const std::string& b);

// The candidate nearest to `name`, at most max_edits edits away (the first of equals); "" when
// none is that near.
std::string nearest_name(const std::string& name, const std::vector<std::string>& candidates,
                         std::size_t max_edits = 2);

// " (did you mean 'radix'?)" for the nearest candidate, or "".
std::string did_you_mean(const std::string& name, const std::vector<std::string>& candidates);

}  // namespace particles
