// nasty_inputs: the nasty-input family of issue 64, run against the real `particles` binary
// headless on the CPU backend. It makes every case (nasty_case.hpp: bad scene files, bad PLY
// files, bad flag values of the app, `bench` and `soak`), runs each in a folder of its own with
// a time limit, and counts: cases, crashes (a signal, an exit code other than 0, 1 or 2, an
// uncaught exception), hangs (past the limit), silent black frames (a screenshot of one colour
// from a run that exited 0 without saying its frame is all background), and files touched
// outside what the command line named (in the case's folder, in the shipped scenes and
// shaders, or beside the case folders). Exits 1 unless all four are 0.
// Usage: nasty_inputs [--binary PATH] [--work DIR] [--jobs N] [--every K] [--offset I]
//                     [--family NAME] [--time-limit S] [--keep] [--list]
//   --every K --offset I: only cases I, I+K, I+2K, ... (CI runs a subset this way).
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "tools/nasty_inputs/case_run.hpp"
#include "tools/nasty_inputs/nasty_case.hpp"

namespace fs = std::filesystem;

namespace {

struct Tally {
  int cases = 0, ran = 0, refused = 0, unexplained = 0, crashed = 0, hung = 0, black_said = 0,
      silent_black = 0, missing = 0, touched = 0;
  double seconds = 0.0;
  void add(const nasty::Verdict& v) {
    ++cases;
    seconds += v.seconds;
    switch (v.outcome) {
      case nasty::Verdict::Outcome::ran:
        ++ran;
        break;
      case nasty::Verdict::Outcome::refused:
        ++refused;
        unexplained += v.message ? 0 : 1;
        break;
      case nasty::Verdict::Outcome::crashed:
        ++crashed;
        break;
      case nasty::Verdict::Outcome::hung:
        ++hung;
        break;
    }
    if (v.black) (v.black_said ? black_said : silent_black) += 1;
    missing += v.missing_screenshot ? 1 : 0;
    touched += v.touched.empty() ? 0 : 1;
  }
  bool failed() const { return crashed + hung + silent_black + touched + missing > 0; }
};

// A small valid cloud (a coloured helix of 500 points) that points scenes load.
void write_cloud(const fs::path& file) {
  std::ofstream out(file);
  out << "ply\nformat ascii 1.0\nelement vertex 500\nproperty float x\nproperty float y\n"
         "property float z\nproperty uchar red\nproperty uchar green\nproperty uchar blue\n"
         "end_header\n";
  for (int i = 0; i < 500; ++i) {
    const double t = i * 0.05;
    out << std::cos(t) << ' ' << std::sin(t) << ' ' << t * 0.1 << ' ' << (i * 7) % 256 << ' '
        << (i * 13) % 256 << ' ' << 200 << '\n';
  }
}

// Everything the family must never change outside its case folders, by path.
std::map<std::string, std::string> watched(const std::vector<fs::path>& places) {
  std::map<std::string, std::string> all;
  for (const fs::path& place : places) {
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(place, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (it->path().filename() == "cases") {
        it.disable_recursion_pending();
        continue;
      }
      std::string id = std::to_string(static_cast<int>(it->symlink_status(ec).type()));
      if (it->is_regular_file(ec)) {
        std::ifstream in(it->path(), std::ios::binary);
        const std::string bytes((std::istreambuf_iterator<char>(in)), {});
        id.append(" ").append(std::to_string(std::hash<std::string>{}(bytes)));
      }
      all[it->path().string()] = id;
    }
  }
  return all;
}

std::string shell_words(const std::vector<std::string>& args) {
  std::string s;
  for (const std::string& a : args) {
    s.push_back(' ');
    if (a.size() > 200) {  // a 5000-character path: its start and length
      s.append("'").append(a.substr(0, 20)).append("...(");
      s.append(std::to_string(a.size())).append(" chars)'");
    } else if (!a.empty() && a.find_first_of(" '\"\\$`*?[]{}();&|<>#~\t\n") == std::string::npos) {
      s.append(a);
    } else {
      s.push_back('\'');
      for (const char ch : a) {
        if (ch == '\'') {
          s.append("'\\''");
        } else {
          s.push_back(ch);
        }
      }
      s.push_back('\'');
    }
  }
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  std::string binary = PARTICLES_BINARY;
  fs::path work = fs::temp_directory_path() / ("nasty-inputs-" + std::to_string(::getpid()));
  int jobs = 2, every = 1, offset = 0;
  double time_limit = 60.0;
  std::string family;
  bool keep = false, list = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "nasty_inputs: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--binary")
      binary = next();
    else if (a == "--work")
      work = next();
    else if (a == "--jobs")
      jobs = std::max(1, std::atoi(next().c_str()));
    else if (a == "--every")
      every = std::max(1, std::atoi(next().c_str()));
    else if (a == "--offset")
      offset = std::max(0, std::atoi(next().c_str()));
    else if (a == "--time-limit")
      time_limit = std::atof(next().c_str());
    else if (a == "--family")
      family = next();
    else if (a == "--keep")
      keep = true;
    else if (a == "--list")
      list = true;
    else {
      std::fprintf(stderr, "nasty_inputs: unknown argument %s (see the file's header)\n",
                   a.c_str());
      return 2;
    }
  }
  binary = fs::absolute(binary).string();
  fs::create_directories(work / "shared");
  work = fs::canonical(work);
  nasty::Sources sources;
  sources.scenes_dir = PARTICLES_SCENES_DIR;
  sources.cloud = (work / "shared" / "cloud.ply").string();
  sources.root = ::geteuid() == 0;
  write_cloud(sources.cloud);

  std::vector<nasty::Case> all;
  for (auto make : {nasty::scene_cases, nasty::ply_cases, nasty::flag_cases}) {
    for (nasty::Case& c : make(sources)) all.push_back(std::move(c));
  }
  std::vector<nasty::Case> cases;
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (static_cast<int>(i % static_cast<std::size_t>(every)) != offset % every) continue;
    if (!family.empty() && all[i].family != family) continue;
    cases.push_back(all[i]);
  }
  if (list) {
    for (const nasty::Case& c : cases) std::printf("%s | %s\n", c.family.c_str(), c.what.c_str());
    std::printf("%zu cases of %zu\n", cases.size(), all.size());
    return 0;
  }

  const std::vector<fs::path> places = {sources.scenes_dir,
                                        fs::path(binary).parent_path() / "scenes",
                                        fs::path(binary).parent_path() / "shaders", work};
  const auto before = watched(places);
  std::map<std::string, Tally> tallies;
  std::vector<std::string> findings;
  std::vector<std::string> explained;  // black frames the run said were all background
  std::mutex lock;
  std::atomic<std::size_t> next_case{0};
  const auto start = std::chrono::steady_clock::now();
  auto worker = [&](int id) {
    for (std::size_t i = next_case++; i < cases.size(); i = next_case++) {
      const nasty::Case& c = cases[i];
      const fs::path folder = work / "cases" / std::to_string(id);
      nasty::Verdict v;
      try {
        v = nasty::run_case(c, binary, folder.string(), time_limit, false);
      } catch (const std::exception& e) {
        v.outcome = nasty::Verdict::Outcome::crashed;
        v.output = std::string("nasty_inputs could not run the case: ") + e.what();
      }
      std::lock_guard<std::mutex> guard(lock);
      tallies[c.family].add(v);
      tallies["all"].add(v);
      std::string problem;
      if (v.outcome == nasty::Verdict::Outcome::crashed) {
        problem = v.signal ? "CRASH (signal " + std::to_string(v.signal) + ")"
                           : "CRASH (exit " + std::to_string(v.exit_code) + ")";
      }
      if (v.outcome == nasty::Verdict::Outcome::hung) problem = "HANG";
      if (v.black && !v.black_said) problem += " SILENT BLACK FRAME";
      if (v.missing_screenshot) problem += " NO SCREENSHOT";
      if (!v.touched.empty()) problem += " TOUCHED: " + v.touched;
      if (v.black && v.black_said) {
        explained.push_back(c.family + " | " + c.what + " (exit " + std::to_string(v.exit_code) +
                            ")");
      }
      if (!problem.empty()) {
        findings.push_back(problem + "\n  case: " + c.family + " | " + c.what +
                           "\n  command: particles" + shell_words(c.args) +
                           "\n  output: " + v.output.substr(0, 600));
      }
    }
  };
  std::vector<std::thread> threads;
  for (int j = 0; j < jobs; ++j) threads.emplace_back(worker, j);
  for (std::thread& t : threads) t.join();
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  // Outside the case folders: the shipped files and the work folder's own.
  const auto after = watched(places);
  int outside = 0;
  for (const auto& [path, id] : after) {
    const auto was = before.find(path);
    if (was == before.end() || was->second != id) {
      ++outside;
      findings.push_back("TOUCHED outside any case: " + path);
    }
  }
  for (const auto& [path, id] : before) {
    if (!after.count(path)) {
      ++outside;
      findings.push_back("REMOVED outside any case: " + path);
    }
  }

  for (const std::string& f : findings) std::printf("%s\n\n", f.c_str());
  if (!explained.empty()) std::printf("black frames the run explained (a note, or exit 1):\n");
  for (const std::string& e : explained) std::printf("  %s\n", e.c_str());
  std::printf("nasty-input family: %zu of %zu cases (every %d from %d), %d jobs, %.0f s\n",
              cases.size(), all.size(), every, offset % every, jobs, wall);
  std::printf("%-11s %6s %6s %8s %12s %8s %6s %12s %13s %10s %8s\n", "family", "cases", "ran",
              "refused", "unexplained", "crashes", "hangs", "black(said)", "silent black",
              "no shot", "touched");
  for (const auto& [name, t] : tallies) {
    if (name == "all") continue;
    std::printf("%-11s %6d %6d %8d %12d %8d %6d %12d %13d %10d %8d\n", name.c_str(), t.cases, t.ran,
                t.refused, t.unexplained, t.crashed, t.hung, t.black_said, t.silent_black,
                t.missing, t.touched);
  }
  const Tally& t = tallies["all"];
  std::printf("%-11s %6d %6d %8d %12d %8d %6d %12d %13d %10d %8d\n", "all", t.cases, t.ran,
              t.refused, t.unexplained, t.crashed, t.hung, t.black_said, t.silent_black, t.missing,
              t.touched + outside);
  std::printf("files touched outside the case folders: %d\n", outside);
  const bool failed = t.failed() || outside > 0;
  std::printf("%s\n", failed ? "FAILED" : "PASSED");
  if (!keep) fs::remove_all(work);
  return failed ? 1 : 0;
}
