#pragma once
// The message of what a call throws, for the tests that compare a refusal's message whole.
#include <string>
#include <string_view>

namespace particles::test {

// What run() throws as an Error, or `otherwise` where it returns. Any other exception passes
// through, and fails the test as unexpected.
template <class Error, class Run>
std::string thrown_message(const Run& run, std::string_view otherwise = "") {
  try {
    run();
  } catch (const Error& e) {
    return e.what();
  }
  return std::string(otherwise);
}

}  // namespace particles::test
