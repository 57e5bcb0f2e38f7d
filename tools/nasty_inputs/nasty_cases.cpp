#include "core/file_bytes.hpp"
#include "tools/nasty_inputs/nasty_case.hpp"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace nasty {
namespace {

namespace fs = std::filesystem;

std::string read_text(const fs::path& file) {
  std::optional<std::string> text = particles::file_bytes(file);
  if (!text) throw std::runtime_error("cannot read " + file.string());
  return std::move(*text);
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string join_lines(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

// One `key = value` line of a TOML file as the shipped files write them (one line each).
struct Slot {
  std::size_t line = 0;
  std::string key;                 // table.key, e.g. "camera.distance", "camera.path[2].yaw"
  std::size_t begin = 0, end = 0;  // the value's characters in the line
  char kind = 'n';                 // n number, s string, a array, b bool
  std::vector<std::pair<std::size_t, std::size_t>> elements;  // an array's, by position
};

std::size_t value_end(const std::string& line, std::size_t at) {
  if (line[at] == '"') {
    for (std::size_t i = at + 1; i < line.size(); ++i) {
      if (line[i] == '\\') {
        ++i;
      } else if (line[i] == '"') {
        return i + 1;
      }
    }
    return line.size();
  }
  if (line[at] == '[') {
    int depth = 0;
    bool in_string = false;
    for (std::size_t i = at; i < line.size(); ++i) {
      if (line[i] == '"') in_string = !in_string;
      if (in_string) continue;
      if (line[i] == '[') ++depth;
      if (line[i] == ']' && --depth == 0) return i + 1;
    }
    return line.size();
  }
  std::size_t end = line.find('#', at);
  if (end == std::string::npos) end = line.size();
  while (end > at && (line[end - 1] == ' ' || line[end - 1] == '\t')) --end;
  return end;
}

std::vector<Slot> slots_of(const std::vector<std::string>& lines) {
  std::vector<Slot> slots;
  std::string table;
  std::map<std::string, int> array_tables;
  for (std::size_t n = 0; n < lines.size(); ++n) {
    const std::string t = trim(lines[n]);
    if (t.empty() || t[0] == '#') continue;
    if (t.rfind("[[", 0) == 0) {
      const std::string name = t.substr(2, t.find("]]") - 2);
      table = name + "[" + std::to_string(array_tables[name]++) + "]";
      continue;
    }
    if (t[0] == '[') {
      table = t.substr(1, t.find(']') - 1);
      continue;
    }
    const std::size_t eq = lines[n].find('=');
    if (eq == std::string::npos) continue;
    Slot s;
    s.line = n;
    s.key = (table.empty() ? "" : table + ".") + trim(lines[n].substr(0, eq));
    s.begin = lines[n].find_first_not_of(" \t", eq + 1);
    if (s.begin == std::string::npos) continue;
    s.end = value_end(lines[n], s.begin);
    const std::string value = lines[n].substr(s.begin, s.end - s.begin);
    s.kind = value[0] == '"'                         ? 's'
             : value[0] == '['                       ? 'a'
             : (value == "true" || value == "false") ? 'b'
                                                     : 'n';
    if (s.kind == 'a') {
      std::size_t start = s.begin + 1;
      for (std::size_t i = s.begin + 1; i + 1 < s.end; ++i) {
        if (lines[n][i] == ',') {
          s.elements.push_back({start, i});
          start = i + 1;
        }
      }
      if (trim(lines[n].substr(start, s.end - 1 - start)) != "") {
        s.elements.push_back({start, s.end - 1});
      }
    }
    slots.push_back(s);
  }
  return slots;
}

std::string replaced(std::string line, std::size_t begin, std::size_t end,
                     const std::string& with) {
  return line.replace(begin, end - begin, with);
}

// Every variant of `text` the family makes, as (what changed, the new text).
void mutate_toml(const std::string& text,
                 const std::function<void(const std::string&, const std::string&)>& emit) {
  static const char* const numbers[] = {
      "0", "-1", "1e30", "-1e30", "nan", "inf", "-inf", "9223372036854775807", "1e-300"};
  static const char* const not_numbers[] = {"\"a string\"", "[1, 2, 3]", "{ a = 1 }", "true"};
  static const char* const elements[] = {"nan", "inf", "-1e30", "1e30", "-1", "\"x\""};
  static const char* const arrays[] = {"[]",           "[1]", "[1, 2, 3, 4, 5]",
                                       "\"a string\"", "1",   "[[1], [2], [3]]"};
  static const char* const strings[] = {
      "\"\"", "\"no such thing\"", "1", "[\"a\"]", "\"\\u001b[2J\\u0007\"", "\"#zzzzzz\"", "\"/\""};
  static const char* const bools[] = {"1", "\"true\""};

  const std::vector<std::string> lines = split_lines(text);
  for (const Slot& s : slots_of(lines)) {
    auto put = [&](const std::string& with, const std::string& what) {
      std::vector<std::string> changed = lines;
      changed[s.line] = replaced(lines[s.line], s.begin, s.end, with);
      emit(s.key + " = " + what, join_lines(changed));
    };
    switch (s.kind) {
      case 'n':
        for (const char* v : numbers) put(v, v);
        for (const char* v : not_numbers) put(v, v);
        break;
      case 's':
        for (const char* v : strings) put(v, v);
        break;
      case 'b':
        for (const char* v : bools) put(v, v);
        break;
      case 'a':
        for (std::size_t e = 0; e < s.elements.size(); ++e) {
          for (const char* v : elements) {
            std::string line = lines[s.line];
            line.replace(s.elements[e].first, s.elements[e].second - s.elements[e].first,
                         std::string(" ") + v);
            std::vector<std::string> changed = lines;
            changed[s.line] = line;
            emit(s.key + "[" + std::to_string(e) + "] = " + v, join_lines(changed));
          }
        }
        for (const char* v : arrays) put(v, v);
        break;
    }
    std::vector<std::string> without = lines;
    without.erase(without.begin() + static_cast<std::ptrdiff_t>(s.line));
    emit(s.key + " deleted", join_lines(without));
    std::vector<std::string> twice = lines;
    twice.insert(twice.begin() + static_cast<std::ptrdiff_t>(s.line), lines[s.line]);
    emit(s.key + " twice", join_lines(twice));
  }
  // An unknown key in each table.
  for (std::size_t n = 0; n < lines.size(); ++n) {
    const std::string t = trim(lines[n]);
    if (t.empty() || t[0] != '[') continue;
    std::vector<std::string> changed = lines;
    changed.insert(changed.begin() + static_cast<std::ptrdiff_t>(n) + 1, "bogus_key = 1");
    emit("unknown key in " + t, join_lines(changed));
  }
}

// A points scene's `file` pointing at `cloud` (absolute), so that a case folder needs no copy.
std::string with_cloud(const std::string& text, const std::string& cloud) {
  std::vector<std::string> lines = split_lines(text);
  for (std::string& line : lines) {
    if (trim(line).rfind("file", 0) == 0 && line.find('=') != std::string::npos) {
      line = "file = \"" + cloud + "\"";
    }
  }
  return join_lines(lines);
}

const std::vector<std::string> kRun = {"--headless", "--backend", "cpu",  "--frames",
                                       "2",          "--size",    "64x48"};

Case scene_case(const std::string& family, const std::string& what, const std::string& text,
                bool override_count) {
  Case c;
  c.family = family;
  c.what = what;
  c.args = kRun;
  for (const char* a : {"--scene", "scene.toml", "--screenshot", "shot.png"}) c.args.push_back(a);
  if (override_count) {
    c.args.push_back("--count");
    c.args.push_back("2000");
  }
  c.files.push_back({"scene.toml", CaseFile::Kind::regular, text});
  c.outputs = {"shot.png"};
  c.screenshot = "shot.png";
  return c;
}

std::string repeated(const std::string& s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

}  // namespace

std::vector<Case> scene_cases(const Sources& sources) {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(sources.scenes_dir)) {
    if (e.path().extension() == ".toml") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  std::vector<Case> cases;
  for (const fs::path& file : files) {
    const std::string text = with_cloud(read_text(file), sources.cloud);
    const bool points = text.find("\"points\"") != std::string::npos;
    const std::string name = file.filename().string();
    mutate_toml(text, [&](const std::string& what, const std::string& changed) {
      // A scene's own count runs when the case is about it (or the cloud sets it); otherwise
      // 2,000 particles keep the family quick.
      const bool about_count =
          what.rfind("particles.count", 0) == 0 || what.rfind("particles.cpu_count", 0) == 0;
      cases.push_back(scene_case("scene", name + ": " + what, changed, !about_count && !points));
    });
  }
  // Whole files that are no scene, and camera specials.
  const std::string galaxy = read_text(fs::path(sources.scenes_dir) / "galaxy.toml");
  const std::string model = "[model]\ntype = \"galaxy\"\n";
  const std::pair<std::string, std::string> specials[] = {
      {"an empty file", ""},
      {"only [[[", "[[[\n"},
      {"non-ASCII outside a string", "name = \"x\"\n[model]\ntype = \"galaxy\"\n\xd0\x9c = 1\n"},
      {"a NUL byte", std::string("name = \"a\0b\"\n", 12) + model},
      {"binary bytes", std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16)},
      {"arrays nested 10000 deep", "x = " + repeated("[", 10000) + repeated("]", 10000) + "\n"},
      {"tables nested 10000 deep",
       "x = " + repeated("{a=", 10000) + "1" + repeated("}", 10000) + "\n"},
      {"a 4 MB string", "name = \"" + std::string(4 << 20, 'a') + "\"\n" + model},
      {"100,000 unknown keys",
       [] {
         std::string s = "[model]\ntype = \"galaxy\"\n[junk]\n";
         for (int i = 0; i < 100000; ++i) {
           s.append("k").append(std::to_string(i)).append(" = ").append(std::to_string(i));
           s.push_back('\n');
         }
         return s;
       }()},
      {"another model's table", model + "[model.fountain]\nspeed = 1.0\n"},
      {"the model table twice", model + model},
      {"a camera path of one key", model + "[[camera.path]]\ntime = 0.0\nyaw = 10.0\n"},
      {"a camera path going back in time",
       model + "[[camera.path]]\ntime = 5.0\nyaw = 0.0\n[[camera.path]]\ntime = 1.0\nyaw = 90.0\n"},
      {"a camera path of 20,000 keys",
       [&] {
         std::string s = model;
         for (int i = 0; i < 20000; ++i) {
           s.append("[[camera.path]]\ntime = ").append(std::to_string(i));
           s.append(".0\nyaw = ").append(std::to_string(i % 720));
           s.append(".0\ndistance = ").append(std::to_string(1 + i % 100)).append(".0\n");
         }
         return s;
       }()},
      {"a camera path whose keys are not tables", model + "[camera]\npath = [1, 2, 3]\n"},
      {"a camera with a path key of every extreme",
       model + "[[camera.path]]\ntime = 0.0\nyaw = 36000.0\npitch = 89.0\ndistance = 1e6\n"
               "[[camera.path]]\ntime = 86400.0\nyaw = -36000.0\npitch = -89.0\n"
               "distance = 1e-4\n"},
      {"the camera at the edge of the world",
       model + "[camera]\ntarget = [1e6, -1e6, 1e6]\ndistance = 1e6\nfov = 170.0\n"},
      {"the camera as close as allowed", model + "[camera]\ndistance = 1e-4\nfov = 1.0\n"},
      {"CRLF line ends",
       [&] {
         std::string s;
         for (const char ch : galaxy) {
           if (ch == '\n') s += '\r';
           s += ch;
         }
         return s;
       }()},
      {"no newline at the end", galaxy.substr(0, galaxy.size() - 1)},
  };
  for (const auto& [what, text] : specials) {
    cases.push_back(scene_case("scene", "special: " + what, text, true));
  }
  return cases;
}

namespace {

std::string ply_header(const std::string& format, const std::string& count,
                       const std::string& properties) {
  return "ply\nformat " + format + "\nelement vertex " + count + "\n" + properties + "end_header\n";
}

std::string float_bytes(float v) {
  return std::string(reinterpret_cast<const char*>(&v), sizeof v);
}

Case ply_case(const std::string& what, const std::string& ply,
              const std::string& scene_extra = "") {
  Case c;
  c.family = "ply";
  c.what = what;
  c.args = kRun;
  for (const char* a : {"--scene", "cloud.toml", "--screenshot", "shot.png"}) c.args.push_back(a);
  c.files.push_back({"cloud.toml", CaseFile::Kind::regular,
                     "name = \"cloud\"\n[model]\ntype = \"points\"\n[model.points]\n"
                     "file = \"bad.ply\"\nfit = 10.0\n" +
                         scene_extra});
  c.files.push_back({"bad.ply", CaseFile::Kind::regular, ply});
  c.outputs = {"shot.png"};
  c.screenshot = "shot.png";
  return c;
}

}  // namespace

std::vector<Case> ply_cases(const Sources&) {
  const std::string xyz = "property float x\nproperty float y\nproperty float z\n";
  const std::string rgb = "property uchar red\nproperty uchar green\nproperty uchar blue\n";
  const std::string ascii = "ascii 1.0";
  const std::string three = "0 0 0\n1 0 0\n0 1 0\n";
  std::vector<Case> cases;
  auto add = [&](const std::string& what, const std::string& ply) {
    cases.push_back(ply_case(what, ply));
  };
  add("a valid ascii file (control)", ply_header(ascii, "3", xyz) + three);
  add("an empty file", "");
  add("only the magic", "ply\n");
  add("wrong magic", "plx\n" + ply_header(ascii, "3", xyz).substr(4) + three);
  add("no format line", "ply\nelement vertex 3\n" + xyz + "end_header\n" + three);
  add("format ascii 2.0", ply_header("ascii 2.0", "3", xyz) + three);
  add("format binary_big_endian", [&] {
    std::string s = ply_header("binary_big_endian 1.0", "3", xyz);
    for (int i = 0; i < 9; ++i) {
      std::string f = float_bytes(static_cast<float>(i));
      std::reverse(f.begin(), f.end());
      s += f;
    }
    return s;
  }());
  add("format unknown", ply_header("utf16 1.0", "3", xyz) + three);
  for (const char* count : {"0", "-1", "1e30", "nan", "18446744073709551616", "9223372036854775808",
                            "134217729", "134217728", "4294967296", "3abc", ""}) {
    add(std::string("element vertex ") + count, ply_header(ascii, count, xyz) + three);
  }
  add("no x property",
      ply_header(ascii, "3", "property float y\nproperty float z\n") + "0 0\n1 0\n0 1\n");
  add("x twice",
      ply_header(ascii, "3", "property float x\n" + xyz) + "0 0 0 0\n1 1 0 0\n0 0 1 0\n");
  add("an unknown property type", ply_header(ascii, "3",
                                             "property flot x\nproperty float y\n"
                                             "property float z\n") +
                                      three);
  add("a list property in the vertex",
      ply_header(ascii, "3", xyz + "property list uchar int idx\n") +
          "0 0 0 1 5\n1 0 0 0\n0 1 0 2 1 2\n");
  add("a list of 2^31 entries",
      ply_header(ascii, "1", xyz + "property list uint int idx\n") + "0 0 0 2147483648 1\n");
  add("no end_header", "ply\nformat ascii 1.0\nelement vertex 3\n" + xyz + three);
  add("end_header and no data", ply_header(ascii, "3", xyz));
  add("fewer lines than declared", ply_header(ascii, "3", xyz) + "0 0 0\n");
  add("more values on a line", ply_header(ascii, "3", xyz) + "0 0 0 7 7\n1 0 0\n0 1 0\n");
  add("fewer values on a line", ply_header(ascii, "3", xyz) + "0 0\n1 0 0\n0 1 0\n");
  for (const char* v :
       {"nan", "inf", "-inf", "1e30", "1e39", "-1e39", "abc", "0x10", "1e-45", "--1", ""}) {
    add(std::string("a coordinate ") + (*v ? v : "missing"),
        ply_header(ascii, "3", xyz) + "0 0 " + v + "\n1 0 0\n0 1 0\n");
  }
  add("no newline at the end", ply_header(ascii, "3", xyz) + "0 0 0\n1 0 0\n0 1 0");
  add("CRLF line ends",
      "ply\r\nformat ascii 1.0\r\nelement vertex 3\r\nproperty float x\r\n"
      "property float y\r\nproperty float z\r\nend_header\r\n0 0 0\r\n1 0 0\r\n"
      "0 1 0\r\n");
  add("a NUL in a property name", ply_header(ascii, "3",
                                             std::string("property float x\0evil\n", 22) +
                                                 "property float y\nproperty float z\n") +
                                      three);
  add("escape sequences in a comment and a name",
      "ply\nformat ascii 1.0\ncomment \x1b[2J\x07\nelement vertex 3\nproperty float \x1b[31mx\n"
      "property float y\nproperty float z\nend_header\n" +
          three);
  add("a 1 MB comment", "ply\nformat ascii 1.0\ncomment " + std::string(1 << 20, 'c') + "\n" +
                            "element vertex 3\n" + xyz + "end_header\n" + three);
  add("colours out of range", ply_header(ascii, "3", xyz + rgb) +
                                  "0 0 0 300 -1 nan\n1 0 0 1 2 3\n"
                                  "0 1 0 4 5 6\n");
  add("float colours of 2", ply_header(ascii, "3",
                                       xyz + "property float red\nproperty float "
                                             "green\nproperty float blue\n") +
                                "0 0 0 2 2 2\n1 0 0 2 2 2\n0 1 0 -2 -2 -2\n");
  add("a face element before the vertices",
      "ply\nformat ascii 1.0\nelement face 1\nproperty list uchar int vertex_indices\n"
      "element vertex 3\n" +
          xyz + "end_header\n3 0 1 2\n" + three);
  add("two vertex elements", "ply\nformat ascii 1.0\nelement vertex 1\n" + xyz +
                                 "element vertex 2\n" + xyz + "end_header\n" + three);
  add(
      "binary, one float short", ply_header("binary_little_endian 1.0", "3", xyz) + [&] {
        std::string s;
        for (int i = 0; i < 8; ++i) s += float_bytes(1.0f);
        return s;
      }());
  add(
      "binary, NaN and infinity", ply_header("binary_little_endian 1.0", "2", xyz) + [&] {
        std::string s;
        for (int i = 0; i < 6; ++i) s += float_bytes(i % 2 ? 1.0f / 0.0f : 0.0f / 0.0f);
        return s;
      }());
  add("binary, a count of 2^27 with 3 points",
      ply_header("binary_little_endian 1.0", "134217728", xyz) + std::string(36, '\0'));
  add("one point, all at one place", ply_header(ascii, "1", xyz) + "5 5 5\n");
  add("every point the same, far away", ply_header(ascii, "3", xyz) +
                                            "1e6 1e6 1e6\n1e6 1e6 1e6\n"
                                            "1e6 1e6 1e6\n");
  // The cloud as something that is no file.
  for (const auto& [what, kind] : {std::pair{"a FIFO", CaseFile::Kind::fifo},
                                   std::pair{"a directory", CaseFile::Kind::directory},
                                   std::pair{"a dangling link", CaseFile::Kind::symlink}}) {
    Case c = ply_case(std::string("the cloud is ") + what, "");
    c.files.back() = {"bad.ply", kind, kind == CaseFile::Kind::symlink ? "nowhere.ply" : ""};
    cases.push_back(c);
  }
  // The scene's other keys against a cloud: fit 0 with points far out, alpha and up.
  cases.push_back(ply_case("far points unfitted",
                           ply_header(ascii, "3", xyz) + "1e7 0 0\n0 0 0\n0 1 0\n", "fit = 0.0\n"));
  return cases;
}

namespace {

using Flags = std::vector<std::pair<std::string, std::string>>;  // flag, value ("" for none)

Case flag_case(const std::string& family, const std::string& command, Flags base,
               const std::string& flag, const std::string& value, std::vector<std::string> outputs,
               const std::string& screenshot) {
  bool found = false;
  for (auto& [f, v] : base) {
    if (f == flag) {
      v = value;
      found = true;
    }
  }
  if (!found) base.push_back({flag, value});
  Case c;
  c.family = family;
  c.what = flag + " " + (value.empty() ? "''" : value);
  if (!command.empty()) c.args.push_back(command);
  for (const auto& [f, v] : base) {
    c.args.push_back(f);
    if (v != "\x01") c.args.push_back(v);  // \x01: a flag without a value
  }
  c.outputs = std::move(outputs);
  c.screenshot = screenshot;
  return c;
}

// Files every flag case has to point at.
std::vector<CaseFile> flag_files(const Sources& sources) {
  std::vector<CaseFile> files = {
      {"scene.toml", CaseFile::Kind::regular,
       read_text(fs::path(sources.scenes_dir) / "galaxy.toml")},
      {"dir", CaseFile::Kind::directory, ""},
      {"full", CaseFile::Kind::directory, ""},
      {"full/photo.jpg", CaseFile::Kind::regular, "a photo"},
      {"fifo", CaseFile::Kind::fifo, ""},
      {"photo.png", CaseFile::Kind::regular, "a photo"},
      {"link.png", CaseFile::Kind::symlink, "photo.png"},
      {"dangling.png", CaseFile::Kind::symlink, "nowhere.png"},
      {"empty.toml", CaseFile::Kind::regular, ""},
      {"garbage.toml", CaseFile::Kind::regular, std::string("\x89PNG\r\n\x1a\n\0\0\xff", 11)},
  };
  if (sources.root) files.push_back({"null", CaseFile::Kind::char_device, ""});
  return files;
}

}  // namespace

std::vector<Case> flag_cases(const Sources& sources) {
  static const char* const numbers[] = {
      "0",          "-1",         "1e30", "-1e30", "nan",
      "inf",        "-inf",       "abc",  "",      "9223372036854775808",
      "2147483648", "4294967297", "1.5",  "0x10",  " 3",
      "3,4"};
  static const char* const names[] = {"", "nan", "abc", "RADIX", "-1", "0", "radix,cub"};
  static const char* const sizes[] = {"0x0", "-1x5",  "16385x1", "1e30x1",  "nanxnan",       "64x",
                                      "x48", "64X48", "64x48x2", "64 x 48", "99999999999x1", "1x1"};
  std::vector<std::string> paths = {"",
                                    ".",
                                    "/",
                                    "dir",
                                    "dir/",
                                    "full",
                                    "fifo",
                                    "link.png",
                                    "dangling.png",
                                    "scene.toml",
                                    "photo.png",
                                    "a/b/c/out.png",
                                    "..",
                                    std::string(5000, 'x')};
  if (sources.root) paths.push_back("null");
  const std::vector<CaseFile> files = flag_files(sources);
  std::vector<Case> cases;
  auto add = [&](Case c) {
    c.files = files;
    cases.push_back(std::move(c));
  };

  // The app: a 2-frame headless run of the galaxy, with a screenshot.
  const Flags app = {{"--headless", "\x01"},      {"--backend", "cpu"}, {"--frames", "2"},
                     {"--size", "64x48"},         {"--count", "2000"},  {"--scene", "scene.toml"},
                     {"--screenshot", "shot.png"}};
  for (const char* flag : {"--count", "--frames", "--key-bits", "--order-period", "--record-fps"}) {
    for (const char* v : numbers)
      add(flag_case("app flag", "", app, flag, v, {"shot.png"}, "shot.png"));
  }
  for (const char* v : sizes)
    add(flag_case("app flag", "", app, "--size", v, {"shot.png"}, "shot.png"));
  for (const char* flag :
       {"--algorithm", "--renderer", "--backend", "--key-mode", "--order", "--compare-mode"}) {
    for (const char* v : names)
      add(flag_case("app flag", "", app, flag, v, {"shot.png"}, "shot.png"));
  }
  for (const std::string& p : paths) {
    add(flag_case("app flag", "", app, "--screenshot", p, {p}, ""));
    add(flag_case("app flag", "", app, "--report", p, {"shot.png", p}, "shot.png"));
    add(flag_case("app flag", "", app, "--record", p, {"shot.png", p}, "shot.png"));
  }
  for (const char* scene : {"", ".", "dir", "fifo", "empty.toml", "garbage.toml", "missing.toml",
                            "photo.png", "link.png", "no_such_scene", "../../../../etc/passwd"}) {
    add(flag_case("app flag", "", app, "--scene", scene, {"shot.png"}, "shot.png"));
  }
  if (sources.root)
    add(flag_case("app flag", "", app, "--scene", "null", {"shot.png"}, "shot.png"));
  // Two outputs that are one file, in several spellings.
  for (const auto& [flag, value] :
       {std::pair{"--report", "shot.png"}, std::pair{"--report", "./dir/../shot.png"},
        std::pair{"--record", "shot.png"}}) {
    add(flag_case("app flag", "", app, flag, value, {"shot.png", "dir"}, "shot.png"));
  }
  {
    Flags inside = app;
    inside.push_back({"--record", "rec"});
    add(flag_case("app flag", "", inside, "--screenshot", "rec/shot.png", {"rec"}, ""));
  }

  // bench: two verified frames of the galaxy.
  const Flags bench = {{"--backend", "cpu"},      {"--scenes", "scene.toml"}, {"--counts", "2000"},
                       {"--size", "64x48"},       {"--frames", "2"},          {"--warmup", "0"},
                       {"--algorithms", "radix"}, {"--renderers", "raster"},  {"--verify", "\x01"},
                       {"--out", "out"}};
  for (const char* flag :
       {"--counts", "--frames", "--warmup", "--key-bits", "--order-period", "--stage-every"}) {
    for (const char* v : numbers)
      add(flag_case("bench flag", "bench", bench, flag, v, {"out"}, ""));
  }
  for (const char* v : sizes)
    add(flag_case("bench flag", "bench", bench, "--size", v, {"out"}, ""));
  for (const char* flag : {"--algorithms", "--renderers", "--key-modes", "--orders", "--backend"}) {
    for (const char* v : names) add(flag_case("bench flag", "bench", bench, flag, v, {"out"}, ""));
  }
  // Named as --out, a folder holds the result files (even ".": the user named it).
  auto in = [](const std::string& dir, std::vector<std::string> results) {
    for (std::string& result : results) result = dir + "/" + result;
    results.push_back(dir);
    return results;
  };
  for (const std::string& p : paths) {
    add(flag_case("bench flag", "bench", bench, "--out", p,
                  in(p, {"frames.csv", "summary.json", "chart.svg"}), ""));
    add(flag_case("bench flag", "bench", bench, "--scenes", p, {"out"}, ""));
    add(flag_case("bench flag", "bench", bench, "--file", p, {"out"}, ""));
  }
  // Bench files with every key bad.
  {
    const std::string base =
        "scenes = [\"galaxy\"]\nalgorithms = [\"radix\"]\ncounts = [2000]\n"
        "key_modes = [\"exact\"]\nrenderers = [\"raster\"]\nkey_bits = 12\nframes = 2\n"
        "warmup = 0\nverify = true\n";
    Flags from_file = {{"--backend", "cpu"}, {"--size", "64x48"}, {"--out", "out"}};
    mutate_toml(base, [&](const std::string& what, const std::string& text) {
      Case c = flag_case("bench file", "bench", from_file, "--file", "bench.toml", {"out"}, "");
      c.what = "bench.toml: " + what;
      c.files = files;
      c.files.push_back({"bench.toml", CaseFile::Kind::regular, text});
      cases.push_back(std::move(c));
    });
  }

  // soak: three cycles of one short segment.
  const Flags soak = {
      {"--backend", "cpu"},      {"--scenes", "scene.toml"}, {"--counts", "2000"},
      {"--algorithms", "radix"}, {"--key-modes", "exact"},   {"--renderers", "raster"},
      {"--size", "64x48"},       {"--frames", "6"},          {"--every", "2"},
      {"--verify-every", "1"},   {"--max-growth", "100"},    {"--out", "out"}};
  for (const char* flag :
       {"--counts", "--frames", "--every", "--verify-every", "--max-growth", "--key-bits"}) {
    for (const char* v : numbers) add(flag_case("soak flag", "soak", soak, flag, v, {"out"}, ""));
  }
  for (const char* v : sizes) add(flag_case("soak flag", "soak", soak, "--size", v, {"out"}, ""));
  for (const char* flag : {"--algorithms", "--renderers", "--key-modes", "--backend"}) {
    for (const char* v : names) add(flag_case("soak flag", "soak", soak, flag, v, {"out"}, ""));
  }
  for (const std::string& p : paths) {
    add(flag_case("soak flag", "soak", soak, "--out", p, in(p, {"samples.csv", "summary.json"}),
                  ""));
    add(flag_case("soak flag", "soak", soak, "--scenes", p, {"out"}, ""));
  }
  return cases;
}

}  // namespace nasty
