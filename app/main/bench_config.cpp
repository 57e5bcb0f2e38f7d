#include "app/main/bench_config.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <tuple>

#include "app/scene/paths.hpp"
#include "app/scene/printable.hpp"
#include "app/scene/toml_guard.hpp"
#include "app/scene/toml_header_only.hpp"
#include "core/backend_limits.hpp"

namespace particles {
namespace {

[[noreturn]] void fail_at(const std::filesystem::path& file, const toml::source_region& where,
                          const std::string& why) {
  std::ostringstream msg;
  msg << file.string() << ':' << where.begin.line << ':' << where.begin.column << ": " << why;
  throw std::runtime_error(printable(msg.str()));  // the file's own strings, escaped
}

// A scene as a bench file names it: a path relative to the bench file's folder (or absolute)
// when one is there, else a scene's name ("galaxy": scenes/galaxy.toml beside the program or in
// the source tree), as the command line takes a path from the current folder or a name. Throws
// with the entry's position when neither is a readable scene file.
std::filesystem::path resolve_scene(const std::filesystem::path& file, const toml::node& item,
                                    const std::string& text) {
  if (text.empty()) {
    fail_at(file, item.source(),
            "scenes entries must not be empty: a scene's name (\"galaxy\") or a path relative "
            "to this file");
  }
  const std::filesystem::path named(text);
  const std::filesystem::path path =
      named.is_absolute() ? named : file.parent_path() / named;  // "" / x is x
  std::error_code ec;
  if (std::filesystem::exists(path, ec) || named.has_parent_path() || named.has_extension()) {
    if (const std::string problem = scene_file_error(path); !problem.empty()) {
      fail_at(file, item.source(), problem);
    }
    return path;
  }
  const std::filesystem::path scene =
      find_resource(std::filesystem::path("scenes") / (text + ".toml"));
  if (const std::string problem = scene_file_error(scene); !problem.empty()) {
    fail_at(file, item.source(),
            "no scene named '" + text + "' (" + problem + ") and no file " + path.string());
  }
  return scene;
}

// "raster|composite": the names a choice may have, for error messages.
std::string choice_list(const std::vector<std::string>& names) {
  std::string list;
  for (const std::string& n : names) list += (list.empty() ? "" : "|") + n;
  return list;
}

// A list entry that names a choice: a string among `names` (from_string's), else a message
// that lists them. `key`: the list; `what`: one entry's kind.
template <class FromString>
auto named_entry(const std::filesystem::path& file, const toml::node& item, const char* key,
                 const char* what, FromString from_string, const std::vector<std::string>& names) {
  const auto s = item.value<std::string>();
  if (!s) fail_at(file, item.source(), std::string(key) + " entries must be strings");
  const auto value = from_string(*s);
  if (!value) {
    fail_at(file, item.source(),
            "unknown " + std::string(what) + " '" + *s + "' (" + choice_list(names) + ")");
  }
  return *value;
}

template <typename F>
void for_each_in(const std::filesystem::path& file, const toml::node& node, const char* key, F f) {
  const toml::array* array = node.as_array();
  if (!array) fail_at(file, node.source(), std::string(key) + " must be an array");
  // An empty list used to mean the default silently; a run of nothing is no bench either.
  if (array->empty()) {
    fail_at(file, node.source(),
            std::string(key) + " = [] lists nothing: name at least one, or leave " + key +
                " out for the default");
  }
  for (const toml::node& item : *array) f(item);
}

// An integer key's value, within [lo, hi].
std::int64_t integer_in(const std::filesystem::path& file, const std::string& name,
                        const toml::node& node, std::int64_t lo, std::int64_t hi) {
  // as_integer, not value<int64_t>: that converts a float, 1e30 too (undefined behaviour).
  const auto* v = node.as_integer();
  if (!v) fail_at(file, node.source(), name + " must be an integer");
  if (**v < lo || **v > hi) {
    fail_at(file, node.source(),
            name + " must be in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  }
  return **v;
}

// The keys that list the bench's matrix (scenes, algorithms, ...); false for any other key.
bool read_list_key(const std::filesystem::path& file, const std::string& name,
                   const toml::node& node, BenchConfig& config) {
  if (name == "scenes") {
    config.scenes.clear();
    for_each_in(file, node, "scenes", [&](const toml::node& item) {
      const auto* s = item.as_string();
      if (!s) fail_at(file, item.source(), "scenes entries must be strings");
      config.scenes.push_back(resolve_scene(file, item, s->get()));
    });
  } else if (name == "algorithms") {
    config.algorithms.clear();
    for_each_in(file, node, "algorithms", [&](const toml::node& item) {
      const auto s = item.value<std::string>();
      const auto a = s ? algorithm_from_string(*s) : std::nullopt;
      if (!a) fail_at(file, item.source(), "unknown algorithm (radix|oddeven|quicksort|cub|auto)");
      config.algorithms.push_back(*a);
    });
  } else if (name == "renderers") {
    config.renderers.clear();
    for_each_in(file, node, "renderers", [&](const toml::node& item) {
      config.renderers.push_back(
          named_entry(file, item, "renderers", "renderer", renderer_from_string, renderer_names()));
    });
  } else if (name == "orders") {
    config.orders.clear();
    for_each_in(file, node, "orders", [&](const toml::node& item) {
      config.orders.push_back(named_entry(file, item, "orders", "draw order",
                                          draw_order_from_string, draw_order_names()));
    });
  } else if (name == "counts") {
    config.counts.clear();
    for_each_in(file, node, "counts", [&](const toml::node& item) {
      const auto* v = item.as_integer();
      if (!v || **v < 1 || **v > std::int64_t{kMaxCount}) {
        fail_at(file, item.source(),
                "counts entries must be integers in [1, " + std::string(kMaxCountText) + "]");
      }
      config.counts.push_back(static_cast<std::uint32_t>(**v));
    });
  } else if (name == "key_modes") {
    config.key_modes.clear();
    for_each_in(file, node, "key_modes", [&](const toml::node& item) {
      const auto s = item.value<std::string>();
      if (s == "exact") {
        config.key_modes.push_back(KeyMode::exact);
      } else if (s == "quantized") {
        config.key_modes.push_back(KeyMode::quantized);
      } else {
        fail_at(file, item.source(), "key_modes entries must be \"exact\" or \"quantized\"");
      }
    });
  } else {
    return false;
  }
  return true;
}

// The keys that set one value of every run (frames, size, ...); false for any other key.
bool read_value_key(const std::filesystem::path& file, const std::string& name,
                    const toml::node& node, BenchConfig& config) {
  auto integer = [&](std::int64_t lo, std::int64_t hi) {
    return integer_in(file, name, node, lo, hi);
  };
  if (name == "order_period") {
    config.choices.order_period = static_cast<int>(integer(1, kMaxOrderPeriod));
  } else if (name == "key_bits") {
    config.choices.key_bits = static_cast<int>(integer(1, 32));
  } else if (name == "frames") {
    config.frames = static_cast<int>(integer(1, 1000000));
  } else if (name == "warmup") {
    config.warmup = static_cast<int>(integer(0, 100000));
  } else if (name == "size") {
    const auto text = node.value<std::string>();
    const auto wh = text ? parse_size(*text) : std::nullopt;
    if (!wh) fail_at(file, node.source(), "size must be \"WIDTHxHEIGHT\", each in 1..16384");
    std::tie(config.width, config.height) = *wh;
  } else if (name == "stage_every") {
    config.choices.stage_sample_period = static_cast<int>(integer(1, 100000));
  } else if (name == "verify" || name == "draw" || name == "fuse_stages") {
    const auto v = node.value<bool>();
    if (!node.is_boolean() || !v) fail_at(file, node.source(), name + " must be true or false");
    (name == "verify" ? config.verify
     : name == "draw" ? config.draw
                      : config.choices.fuse_stages) = *v;
  } else {
    return false;
  }
  return true;
}

}  // namespace

void load_bench_file(const std::filesystem::path& file, BenchConfig& config) {
  // From its status first: a FIFO would block the open.
  if (const std::string problem = input_file_problem(file); !problem.empty()) {
    throw std::runtime_error(printable(file.string()) + ": cannot open bench file: " + problem);
  }
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error(printable(file.string()) + ": cannot open bench file");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw std::runtime_error(file.string() + ": cannot open bench file (read error)");
  parse_bench_text(text.str(), file, config);
  config.file = file;
}

void parse_bench_text(std::string_view toml_text, const std::filesystem::path& file,
                      BenchConfig& config) {
  if (const auto bad = find_unsafe_toml_character(toml_text)) {
    throw std::runtime_error(file.string() + ':' + std::to_string(bad->line) + ':' +
                             std::to_string(bad->column) + ": " + bad->message);
  }
  toml::table root;
  try {
    root = toml::parse(toml_text, file.string());
  } catch (const toml::parse_error& e) {
    fail_at(file, e.source(), std::string(e.description()));
  }
  for (const auto& [key, node] : root) {
    const std::string name(key.str());
    if (!read_list_key(file, name, node, config) && !read_value_key(file, name, node, config)) {
      fail_at(file, node.source(), "unknown key '" + name + "'");
    }
  }
}

void finish_bench_config(BenchConfig& config) {
  if (config.scenes.empty()) config.scenes.push_back(find_resource("scenes/galaxy.toml"));
  if (config.algorithms.empty()) {
    config.algorithms.assign(kAllAlgorithms.begin(), kAllAlgorithms.end());
  }
  if (config.key_modes.empty()) config.key_modes.push_back(KeyMode::exact);
  if (config.orders.empty()) config.orders.push_back(DrawOrder::exact);
  if (config.choices.order_period < 1 || config.choices.order_period > kMaxOrderPeriod) {
    throw std::runtime_error("--order-period must be in [1, " + std::to_string(kMaxOrderPeriod) +
                             "]");
  }
  for (const auto& scene : config.scenes) {
    if (const std::string problem = scene_file_error(scene); !problem.empty()) {
      throw std::runtime_error(problem);
    }
  }
  if (config.frames < 1) throw std::runtime_error("--frames must be at least 1");
  if (config.warmup < 0) throw std::runtime_error("--warmup must not be negative");
}

}  // namespace particles
